package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.IntFunction;
import org.testbed.driver.Level;
import org.testbed.driver.LoadResult;
import org.testbed.driver.NioHttpDriver;
import org.testbed.driver.Scenarios;
import org.testbed.driver.Target;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.FaultSpec;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.stats.SteadyState;
import org.testbed.runner.capacity.CapacityPlan;
import org.testbed.runner.capacity.CapacitySearch;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.problem.Problem;
import org.testbed.runner.problem.Problems;
import org.testbed.scenario.Workload;
import org.testbed.ssh.ConnectionLostException;
import org.testbed.variant.Variant;

/**
 * One start of one variant: launch its jar (pinned), wait for health, and for each scenario
 * preload, warm up and measure every step {@code --iterations} times; then stop it. A step that fails is reported and the
 * next one tried; a server that dies ends the session. Each sample is recorded as soon as it is
 * measured.
 */
final class VariantSession {
    /** The most users a warm-up sends: the delay scenario's 400, not a staircase's 1100. */
    private static final int WARMUP_MAX_USERS = 400;
    /** Users that warm up an open-model scenario, whose rate a closed warm-up cannot mimic. */
    private static final int WARMUP_OPEN_USERS = 64;
    /**
     * A warm-up round: as many 1-second windows as the steady-state rule compares at a time
     * ({@link SteadyState#SETTLE_WINDOWS}), so that each group it compares holds one round's start, whose first
     * window a closed model on a slow endpoint always has lower (the 150 ms delay's first answers come 150 ms in).
     */
    private static final int WARMUP_ROUND_SECONDS = SteadyState.SETTLE_WINDOWS;
    /** After a missed capacity probe, before the health check: the backlog's connections drain and close. */
    private static final Duration RECOVERY_PAUSE = Duration.ofSeconds(1);

    private final RunSettings settings;
    private final StepMeasurement measurement;
    private final Progress progress;
    private final RunRecorder recorder;
    private final Problems problems;
    private final ServerHosting hosting;

    /** @param hosting where the variants run: here or on the server's machine */
    VariantSession(RunSettings settings, StepMeasurement measurement, Progress progress, RunRecorder recorder,
                   Problems problems, ServerHosting hosting) {
        this.hosting = hosting;
        this.settings = settings;
        this.measurement = measurement;
        this.progress = progress;
        this.recorder = recorder;
        this.problems = problems;
    }

    /** The settings of this session's conditions. */
    RunSettings settings() {
        return settings;
    }

    /** Starts the variant, measures every scenario's steps in it, and stops it. */
    VariantOutcome run(int index, int repeat, Variant variant, Path java, JdkInfo jdk)
            throws IOException, InterruptedException {
        long planned = 0;
        try (Started started = start(index, repeat, variant, java, jdk)) {
            for (Map.Entry<String, List<Level>> scenario : settings.load().scenarios().entrySet()) {
                planned += runScenario(started, scenario.getKey(), scenario.getValue());
            }
        }
        return new VariantOutcome(planned);
    }

    /**
     * Starts the variant from its jar and waits until it is healthy: a start the caller keeps for as
     * long as it measures it, and closes.
     *
     * @param index the variant's place in the run (1-based; one per variant and conditions), which keeps its keys
     *              apart from the others'
     * @param repeat which pass of the run this is (1-based), which keeps its keys apart from earlier passes'
     */
    Started start(int index, int repeat, Variant variant, Path java, JdkInfo jdk) throws IOException, InterruptedException {
        Path jar = variant.jarIn(settings.output().root());
        if (!Files.isRegularFile(jar)) {
            throw new IOException("the jar " + variant.jar() + " is missing (./testbed run builds it; or ./mvnw -pl "
                    + variant.module() + " -am package -DskipTests)");
        }
        Path log = settings.output().out().resolve("logs").resolve(variant.name() + settings.conditionsSuffix()
                + (settings.load().repeat() > 1 ? "-r" + repeat : "") + ".log");
        progress.info(String.format(Locale.ROOT, "== %s (%s, JDK %s)%s%s: starting", variant.name(), variant.mode(),
                jdk.label(), settings.conditions().equals(Conditions.PLAIN) ? "" : ", " + settings.conditions().label(),
                settings.load().repeat() > 1 ? ", fork " + repeat + "/" + settings.load().repeat() : ""));
        RunningServer server = hosting.start(settings, variant, java, jdk, log);
        try {
            hosting.started(server).ifPresent(progress::info);
            Started started = new Started(new ServedVariant(variant, server, server.jdk(), Target.of(server.baseUri())),
                    repeat, "v" + index + (repeat > 1 ? "r" + repeat : ""), log,
                    new Scenarios(settings.output().runId(), settings.load().payloadSize(), settings.load().delayMs(), 42L));
            ServerReadiness.awaitHealthy(server.baseUri());
            return started;
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * One start of the variant as its scenarios see it; closing it stops the server.
     *
     * @param keys what keeps this start's keys apart from the others' ({@code v3r2})
     * @param log the log of its start
     */
    record Started(ServedVariant served, int repeat, String keys, Path log, Scenarios scenarios) implements AutoCloseable {

        RunningServer server() {
            return served.server();
        }

        @Override
        public void close() {
            served.server().close();
        }
    }

    /** Preloads, warms up and measures one scenario's steps; returns the planned time it took, in milliseconds. */
    private long runScenario(Started started, String name, List<Level> levels) throws IOException, InterruptedException {
        WarmUp warmUp = prepare(started, name, levels);
        long planned = Math.round(warmUp.seconds() * 1000);
        if (settings.capacity().isPresent()) {
            StepRunner steps = (level, slug, iteration) -> measureStep(started, name, warmUp, level, slug, iteration);
            return planned + searchCapacity(started.served().variant(), name, started.repeat(), steps, started.server());
        }
        for (Level level : levels) {
            // Iterations follow each other in the same server, as JMH's do: its warm-up holds for all.
            for (int iteration = 1; iteration <= settings.load().iterations(); iteration++) {
                planned += measureLevel(started, name, warmUp, level, iteration);
            }
        }
        return planned;
    }

    /**
     * Preloads scenario {@code name}'s items and warms the server up on it until it is steady; returns
     * the warm-up its steps will say they had.
     */
    WarmUp prepare(Started started, String name, List<Level> levels) throws IOException, InterruptedException {
        RunningServer server = started.server();
        Scenarios scenarios = started.scenarios();
        ServerReadiness.preload(server.baseUri(), scenarios.preload(scenarios.workload(name, started.keys() + "-pre")));
        WarmUp warmUp = warmUp(server, started.served().target(),
                round -> scenarios.workload(name, started.keys() + "-warm-" + name + "-" + round), levels,
                hosting.compilers(server, settings.servers().pinning()));
        // A warm-up of more users than the server has threads leaves requests queued in it when the
        // driver stops: the health check answers once they have drained, so the first step starts
        // from the server's steady state, not from the warm-up's backlog (1.5 s of it for 64 users
        // on 4 threads with 100 ms of delay).
        ServerReadiness.awaitHealthy(server.baseUri());
        return warmUp;
    }

    /** Keeps the run's tables' place for {@code variant}'s steps of scenario {@code name}, before any is measured. */
    void reserve(Variant variant, String name, List<Level> levels) {
        for (Level level : levels) {
            recorder.reserve(new ResultRow.StepKey(variant.name(), name, level.isOpen() ? 0 : level.concurrency(),
                    level.isOpen() ? level.rate() : 0, settings.conditions()));
        }
    }

    /** Measures iteration {@code iteration} of one level of scenario {@code name}; returns its planned time in ms. */
    long measureLevel(Started started, String name, WarmUp warmUp, Level level, int iteration)
            throws IOException, InterruptedException {
        measureStep(started, name, warmUp, level, ResultRow.StepKey.levelSlug(level.concurrency(), level.rate()), iteration);
        return settings.load().window().toMillis();
    }

    /** Measures one step of scenario {@code name} and records it; null when it failed (reported, the next one is tried). */
    private Sample measureStep(Started started, String name, WarmUp warmUp, Level level, String slug, int iteration)
            throws IOException, InterruptedException {
        ServedVariant served = started.served();
        String step = served.variant().name() + " " + name + " " + level.label();
        if (!alive(served.server(), step)) {
            throw new IOException(served.variant().name() + " exited during the run; see " + started.log());
        }
        // The previous window's users are gone, but a server with fewer threads than users
        // still holds their queued requests (400 users on 20 threads with 150 ms each:
        // 2.9 s of them). Measured at once, the next window waits behind that backlog and
        // saw 5-7 req/s where Little's law allows 133. The health check answers once it is drained.
        ServerReadiness.awaitHealthy(served.server().baseUri());
        if (settings.conditions().faults().stream().anyMatch(f -> f.kind() == FaultSpec.Kind.RESTART)) {
            // A restart empties the store: each window starts from the items the scenario reads, as the first did.
            ServerReadiness.preload(served.server().baseUri(),
                    started.scenarios().preload(started.scenarios().workload(name, started.keys() + "-pre")));
        }
        try {
            SlowWindows slow = measurement.slowWindows();
            for (int retake = 0; ; retake++) {
                Workload workload = started.scenarios().workload(name, started.keys() + "-" + name + "-" + slug
                        + (iteration > 1 ? "-i" + iteration : "") + (retake > 0 ? "-again" + retake : ""));
                Sample sample = measurement.measure(served, new SamplePlan(workload, level, started.repeat(), iteration, warmUp,
                        retake), progress.live(step, settings.load().duration()));
                SlowWindows.Decision decision = slow.decide(sample.sample().measured(), retake, System.nanoTime(),
                        settings.load().duration());
                if (decision != SlowWindows.Decision.KEPT) {
                    sample = sample.leftOut();
                }
                recorder.record(sample);
                progress.step(sample);
                if (decision == SlowWindows.Decision.KEPT) {
                    return sample;
                }
                progress.info(slow.describe(step + (settings.load().iterations() > 1 ? " iteration " + iteration : "")
                        + (retake > 0 ? " (retake " + retake + ")" : ""), sample.sample().measured(), decision, retake));
                if (decision == SlowWindows.Decision.LEFT_OUT) {
                    return sample;
                }
                progress.retake(settings.load().duration());
                ServerReadiness.awaitHealthy(served.server().baseUri());
            }
        } catch (ConnectionLostException e) {
            throw e.during(step);
        } catch (IOException e) {
            Problem problem = problems.stepFailed(step, e.getMessage());
            progress.info("!! " + problem.text());
            return null;
        } finally {
            progress.planned(settings.load().window());
        }
    }

    /** Is the server still running? A lost server machine is named with the step it was lost before. */
    private static boolean alive(RunningServer server, String step) {
        try {
            return server.isAlive();
        } catch (ConnectionLostException e) {
            throw e.during(step);
        }
    }

    /** Measures one step of a scenario; null when the step failed (reported, the next one is tried). */
    @FunctionalInterface
    private interface StepRunner {
        Sample measure(Level level, String slug, int iteration) throws IOException, InterruptedException;
    }

    /**
     * Runs the scenario's {@link CapacitySearch}: each rate it asks for is a step of its own (recorded
     * like any other, with the SLA in steps.csv), until it has found the highest rate that meets
     * the SLA; the outcome goes to capacity.csv. A step that failed to measure counts as missed. A
     * missed rate leaves the server with a backlog (queued requests, connections closing): the next
     * probe waits until it answers its health check again, so it starts from an idle server.
     * Returns the planned time the probes took, in milliseconds.
     */
    private long searchCapacity(Variant variant, String scenario, int repeat, StepRunner steps, RunningServer server)
            throws IOException, InterruptedException {
        CapacityPlan plan = settings.capacity().orElseThrow();
        CapacitySearch search = plan.newSearch();
        long planned = 0;
        for (OptionalDouble next = search.next(); next.isPresent(); next = search.next()) {
            Level level = Level.open(next.getAsDouble());
            Sample sample = steps.measure(level, ResultRow.StepKey.levelSlug(level.concurrency(), level.rate()), 1);
            planned += settings.load().window().toMillis();
            CapacitySearch.Probe probe = sample == null
                    ? new CapacitySearch.Probe(level.rate(), Double.NaN, 1, false, false)
                    : new CapacitySearch.Probe(level.rate(), plan.sla().latencyOf(sample.row()), sample.row().throughput().errors(),
                    plan.sla().met(plan.sla().latencyOf(sample.row()), sample.row().throughput().errors()), sample.step().load().saturated());
            search.record(probe);
            progress.info(String.format(Locale.ROOT, "   %s %s at %s/s: %s", scenario, plan.sla().label(),
                    ResultRow.num(level.rate(), 0), probe.met() ? "met" : "missed"));
            if (!probe.met() && !search.done()) {
                Thread.sleep(RECOVERY_PAUSE.toMillis());
                ServerReadiness.awaitHealthy(server.baseUri());
            }
        }
        CapacityRecord record = CapacitySearch.record(variant.name(), scenario, settings.conditions(), plan.sla(), repeat,
                search.result(), measurement.pricing());
        recorder.recordCapacity(record);
        progress.info(String.format(Locale.ROOT, "   capacity of %s %s under %s: %s req/s (%s)", variant.name(), scenario,
                plan.sla().label(), ResultRow.num(record.capacityRps(), 0), record.reason()));
        return planned;
    }

    /**
     * Unmeasured load before a scenario's first step, until the server is steady
     * ({@link WarmUpWatcher}: throughput no longer rising and the JIT's compiler threads idle, neither
     * compiling nor waiting for a CPU to compile on), at most {@code --warmup}: a fixed short warm-up
     * measures the JIT, a fixed long one wastes minutes on servers that settle in seconds.
     *
     * <p>The load comes in rounds of {@value #WARMUP_ROUND_SECONDS} s, each on fresh connections
     * (and keys), as the measured iterations will come: a server first sees its clients' connections
     * close and reopen when the warm-up ends, and on one core the recompilation that triggers (a
     * branch never taken before, a method deoptimized) cost spring-tomcat a quarter of its
     * throughput for the first two measured iterations. Meanwhile the server's compiler threads
     * may also use the load driver's CPUs ({@link CompilerPlacement}), so that a server pinned to one
     * busy core gets its code compiled in seconds instead of minutes; they are pinned back before the
     * first measured window. Each round ends with the health check that precedes every measured
     * window, so that the warm-up has run everything the measured windows will see.
     */
    private WarmUp warmUp(RunningServer server, Target target, IntFunction<Workload> rounds, List<Level> levels,
                          CompilerPlacement compilers) throws IOException, InterruptedException {
        if (settings.load().warmup().isZero()) {
            return new WarmUp(0, false);
        }
        int users = warmUpUsers(levels);
        NioHttpDriver driver = new NioHttpDriver(settings.load().timeout(), settings.load().maxConnections(), settings.conditions().gzip());
        double seconds = 0;
        WarmUpWatcher watcher;
        int round = 0;
        long left = settings.load().warmup().toMillis();
        try (compilers) {
            compilers.spread();
            watcher = new WarmUpWatcher(server::compilers, compilers::spread);
            while (left >= 1000) {
                round++;
                Duration length = Duration.ofMillis(Math.min(left, WARMUP_ROUND_SECONDS * 1000L));
                LoadResult result = driver.run(target, rounds.apply(round), Level.closed(users), length,
                        settings.servers().pinning().loadCpuCount(), watcher.perSecond(),
                        progress.live("warm-up " + rounds.apply(0).name() + " round " + round, length));
                seconds += result.seconds();
                left -= length.toMillis();
                // Every measured window follows a health check (the drain wait in run()); each round
                // does too, so that the check's own code paths are in the profile the JIT compiles
                // from. Without it the first check after the warm-up hit branches the compiled code
                // had never seen: servlet-jetty-sync deoptimized its HTTP parser and route matcher
                // there (-Xlog:deoptimization, "unstable_if") and measured 12-17 k req/s for the first
                // two seconds of every first window, against 29 k once recompiled.
                ServerReadiness.awaitHealthy(server.baseUri());
                boolean steady = watcher.roundDone(result.windowRps());
                if (steady && seconds * 1000 >= settings.load().warmupAtLeast().toMillis()) {
                    break;
                }
            }
        }
        progress.warmUpDone(seconds);
        progress.info("   warm-up " + rounds.apply(0).name() + ": " + watcher.describe(seconds)
                + (compilers.active() ? "; compiler threads on CPUs " + settings.servers().pinning().serverCpus() + ","
                + settings.servers().pinning().loadCpus() + " meanwhile, then back on " + settings.servers().pinning().serverCpus() : ""));
        return new WarmUp(seconds, watcher.settled());
    }

    /**
     * How many users warm a scenario up: those of its first level, as its first window will come
     * (a sync server grows its thread pool to them, and 400 users warmed up as 64 left the first
     * delay window to start 136 threads: twice the CPU per request of the next two), at most
     * {@value #WARMUP_MAX_USERS}; for an open model {@value #WARMUP_OPEN_USERS}.
     */
    static int warmUpUsers(List<Level> levels) {
        return levels.isEmpty() || levels.get(0).isOpen() ? WARMUP_OPEN_USERS
                : Math.min(WARMUP_MAX_USERS, levels.get(0).concurrency());
    }
}
