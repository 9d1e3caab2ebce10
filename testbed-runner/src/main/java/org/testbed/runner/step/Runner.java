package org.testbed.runner.step;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.testbed.jmeter.JMeterHome;
import org.testbed.jmeter.distributed.LoadHosts;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runfolder.report.ReportWriter;
import org.testbed.runfolder.summary.RunSummary;
import org.testbed.runner.env.Environment;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.problem.Problem;
import org.testbed.runner.problem.Problems;
import org.testbed.ssh.ConnectionLostException;
import org.testbed.variant.Variant;

/**
 * One run: memcached, then each variant in turn ({@link VariantSession}: started from its jar,
 * warmed up, every step measured), the files recorded as it goes ({@link RunRecorder}), and at the
 * end the environment and the report.
 */
public final class Runner {
    private final RunSettings settings;
    private final PrintStream console;
    private final Problems problems = new Problems();

    public Runner(RunSettings settings, PrintStream console) {
        this.settings = settings;
        this.console = console;
    }

    /** Runs everything; returns the number of steps that produced a row. */
    public int run() throws IOException, InterruptedException {
        LeftBehind.stopOnExit();
        Path out = settings.output().out();
        Files.createDirectories(out.resolve("raw"));
        Files.createDirectories(out.resolve("logs"));
        RunRecorder recorder = RunRecorder.create(out, settings.observation().counters(), settings.observation().jfr(),
                settings.capacity().isPresent());
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        long runStart = System.nanoTime();
        recorder.holdTo(settings.precision().target(), settings.load().repeat());
        Pinning pinning = settings.servers().pinning();
        Environment.cpus(); // counted before this process is pinned
        Pinning.allowedCpusAtStart();
        Pinning.pin(ProcessHandle.current().pid(), pinning.loadCpus());

        JdkChoice jdks = new JdkChoice(settings, console);
        ServerHosting hosting = ServerPlace.of(settings.serverHost()).hosting(settings, jdks, problems);
        Map<Variant, Path> javas = hosting.javas();
        EnvironmentRecord env = RunEnvironment.of(settings, started, hosting.javasHere(), jdks)
                .withPrice(hosting.price().map(Pricing::section));
        EnvironmentFile.write(out.resolve(EnvironmentFile.NAME), env);

        Optional<String> flameMode = settings.observation().flamegraph();
        Flamegraphs flamegraphs = flameMode.isPresent() ? Flamegraphs.prepare(out.resolve("flame"), flameMode.get()) : null;
        int starts = javas.size() * settings.conditionSets().size() * settings.load().repeat();
        Progress progress = new Progress(console, recorder, settings.samplesPerPass() * settings.load().repeat(),
                settings.measuredMillisPerPass() * settings.load().repeat(), settings.warmUpsPerPass() * settings.load().repeat(),
                settings.load().warmup(), starts);
        progress.info(String.format(Locale.ROOT, "testbed run %s: %d variant(s), scenarios %s, %s per sample after up to %s"
                        + " of warm-up%s%s%s; %s; results in %s", settings.output().runId(), javas.size(), settings.load().scenarios().keySet(),
                human(settings.load().duration()), human(settings.load().warmup()),
                settings.capacity().map(plan -> String.format(Locale.ROOT, ", capacity under %s searched from %s to %s"
                        + " req/s to within %s%%", plan.sla().label(), ResultRow.num(plan.low(), 0),
                        ResultRow.num(plan.high(), 0), ResultRow.num(100 * plan.precision(), 1))).orElse(""),
                forksAndIterations(settings),
                settings.conditionSets().equals(List.of(Conditions.PLAIN)) ? ""
                        : ", conditions " + settings.conditionsLabel() + (settings.conditionSets().size() > 1
                        ? " (every variant under each, started afresh for each)" : ""),
                pinning.describe(), out));
        progress.info(String.format(Locale.ROOT, "planned: %d server start(s), %d warm-up(s) ending once steady, %d sample(s)"
                        + " of %s; at most %s%s", starts, settings.warmUpsPerPass() * settings.load().repeat(),
                settings.samplesPerPass() * settings.load().repeat(), human(settings.load().duration()), progress.atMost(),
                settings.precision().active() ? String.format(Locale.ROOT, "; then forks added where an interval is wider"
                        + " than the target (%s), within %s for the whole run", settings.precision().target().describe(),
                        settings.precision().budget().map(b -> Progress.format(b.toMillis()))
                                .orElse("1.5 x the planned forks' time")) : ""));

        LoadHosts loadHosts = null;
        try {
            hosting.open(progress);
            env = hosting.describe(env).withPrice(hosting.price().map(Pricing::section));
            EnvironmentFile.write(out.resolve(EnvironmentFile.NAME), env);
            env = env.withRun(env.run().withMemcached(hosting.memcachedServers(), hosting.memcachedStartedByRunner()));
            if (settings.loadHosts().isPresent()) {
                loadHosts = LoadHosts.connect(settings.loadHosts().get(), JMeterHome.find(settings.output().root()),
                        settings.output().runId(), out.resolve("jmeter"), progress::info);
                progress.info("load from JMeter's engines on " + String.join(", ", loadHosts.hosts()) + " (controller here at "
                        + loadHosts.localAddress() + "; each step's users divided over them)");
            }
            Optional<Pricing> pricing = hosting.price();
            pricing.ifPresent(p -> progress.info("price: " + p.describe() + "; each step's cost per million requests"
                    + " = price per hour × share / (req/s × 3600) × 1e6 (steps.csv's cost_per_million)"));
            List<Conditions> conditionSets = settings.conditionSets();
            List<VariantSession> sessions = new ArrayList<>();
            for (Conditions conditions : conditionSets) {
                RunSettings under = settings.forConditions(conditions);
                StepMeasurement measurement = new StepMeasurement(under, flamegraphs, hosting.memcachedPid(), problems, pricing,
                        loadHosts);
                sessions.add(new VariantSession(under, measurement, progress, recorder, problems, hosting));
            }
            List<Map.Entry<Variant, Path>> variants = new ArrayList<>(javas.entrySet());
            ForkCosts costs = new ForkCosts();
            // What every session needs, fixed from here on.
            LoadHosts hosts = loadHosts;
            SessionRunner runSession = (session, entry, c, fork) -> {
                Variant variant = entry.getKey();
                // Keys apart per variant and conditions: a second session must not find the first's items.
                int index = c * variants.size() + variants.indexOf(entry) + 1;
                long t0 = System.nanoTime();
                long planned = 0;
                try {
                    VariantOutcome outcome = session.run(index, fork, variant, entry.getValue(),
                            hosting.jdkBeforeStart(entry.getValue()));
                    planned = outcome.plannedMillis();
                } catch (ConditionRefusedException e) {
                    throw e; // --tls or --gzip that a variant cannot honour: the run stops
                } catch (ConnectionLostException e) {
                    // The server's machine is gone: every later step would fail the same way. The steps
                    // done are kept; the report and environment.json are still written.
                    problems.machineLost(e.getMessage());
                    progress.info("!! " + e.getMessage() + "; the run stops here, the steps measured so far are kept");
                    return false;
                } catch (IOException | RuntimeException e) {
                    Problem problem = problems.sessionFailed(variant.name() + (conditionSets.size() > 1
                            ? " " + conditionSets.get(c).label() : "") + (settings.load().repeat() > 1 ? " (fork " + fork + ")" : ""),
                            e.getMessage());
                    progress.info("!! " + problem.firstLine() + " (skipped; see " + out.relativize(out.resolve("logs")) + ")");
                }
                long wall = (System.nanoTime() - t0) / 1_000_000;
                progress.variantDone(Math.max(0, wall - planned));
                costs.sessionDone(variant.name(), conditionSets.get(c).label(), wall, planned);
                return true;
            };
            boolean going = true;
            passes:
            for (int repeat = 1; repeat <= settings.load().repeat(); repeat++) {
                for (Map.Entry<Variant, Path> entry : rotated(variants, repeat - 1)) {
                    for (int c = 0; c < conditionSets.size(); c++) {
                        if (!runSession.run(sessions.get(c), entry, c, repeat)) {
                            going = false;
                            break passes;
                        }
                    }
                }
            }
            if (going && settings.precision().active() && settings.capacity().isEmpty()) {
                new PrecisionPhase(settings, recorder, progress, costs, runStart).run((variant, conditions, scenario, fork,
                                                                                         iterations, why) -> {
                    Map.Entry<Variant, Path> entry = variants.stream().filter(e -> e.getKey().name().equals(variant))
                            .findFirst().orElseThrow();
                    int c = conditionSets.stream().map(Conditions::label).toList().indexOf(conditions);
                    RunSettings under = settings.forConditions(conditionSets.get(c)).forAddedFork(scenario, fork, iterations);
                    VariantSession session = new VariantSession(under, new StepMeasurement(under, flamegraphs,
                            hosting.memcachedPid(), problems, pricing, hosts), progress, recorder, problems, hosting);
                    return runSession.run(session, entry, c, fork);
                });
            }
        } catch (ConnectionLostException e) {
            // A load host lost while connecting: nothing was measured; the report and environment.json are still written.
            problems.machineLost(e.getMessage());
            progress.info("!! " + e.getMessage() + "; the run stops here");
        } finally {
            if (loadHosts != null) {
                loadHosts.close();
            }
            hosting.close();
        }
        env = hosting.describe(env);
        env = RunEnvironment.finished(env, settings, started, Optional.ofNullable(flamegraphs).map(Flamegraphs::describe),
                problems.texts(), jdks.skipped());
        EnvironmentFile.write(out.resolve(EnvironmentFile.NAME), env);
        Path report = ReportWriter.write(out); // and summary.md
        if (recorder.steps() > 0) {
            progress.info(RunSummary.of(out).console().stripTrailing());
        }
        if (settings.load().repeat() * settings.load().iterations() > 1) {
            progress.summary(recorder.aggregates());
        }
        if (settings.capacity().isPresent()) {
            progress.capacities(CapacityCsv.summaries(CapacityCsv.TABLE.read(out.resolve(CapacityCsv.FILE))));
        }
        progress.info(String.format(Locale.ROOT, "done in %s: %d row(s) in %s, report %s%s", progress.elapsed(),
                recorder.steps(), recorder.resultsCsv(), report, problems.isEmpty() ? "" : "; problems: " + problems.count()));
        return recorder.steps();
    }

    /** Runs one session of a variant (fork {@code fork}, conditions {@code c}); false when the run must stop. */
    @FunctionalInterface
    private interface SessionRunner {
        boolean run(VariantSession session, Map.Entry<Variant, Path> entry, int c, int fork) throws InterruptedException;
    }

    /** What went wrong without stopping the run: a run with any finishes with the status that says so. */
    public Problems problems() {
        return problems;
    }

    /**
     * The variants in the order of pass {@code shift}: shifted by one each pass, so that a slow drift
     * of the machine (heat, a neighbour, a cache filling) lands on every variant alike instead of
     * always on the last one.
     */
    static <T> List<T> rotated(List<T> items, int shift) {
        if (items.isEmpty()) {
            return items;
        }
        int k = shift % items.size();
        List<T> out = new ArrayList<>(items.subList(k, items.size()));
        out.addAll(items.subList(0, k));
        return out;
    }

    /** {@code , 2 forks (fresh servers, variant order rotated) x 3 iterations of every step}, or nothing for one sample. */
    private static String forksAndIterations(RunSettings settings) {
        if (settings.load().repeat() == 1 && settings.load().iterations() == 1) {
            return "";
        }
        return ", " + settings.load().repeat() + " fork(s) (fresh servers" + (settings.load().repeat() > 1 ? ", variant order rotated" : "")
                + ") x " + settings.load().iterations() + " iteration(s) of every step";
    }

    static String human(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
