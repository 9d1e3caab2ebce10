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
import java.util.Set;
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
    private final Optional<ResumePoint> resumed;

    public Runner(RunSettings settings, PrintStream console) {
        this(settings, console, Optional.empty());
    }

    /** @param resumed the run folder taken up again ({@code run --resume}): its finished sessions are kept, not measured */
    public Runner(RunSettings settings, PrintStream console, Optional<ResumePoint> resumed) {
        this.settings = settings;
        this.console = console;
        this.resumed = resumed;
    }

    /** Runs everything; returns the number of steps that produced a row. */
    public int run() throws IOException, InterruptedException {
        LeftBehind.stopOnExit();
        Path out = settings.output().out();
        RunRecorder.Resumed kept = resumed.isPresent() ? RunRecorder.resume(out, settings.observation().counters(),
                settings.observation().jfr()) : null;
        RunRecorder recorder = kept != null ? kept.recorder() : createFolder(out);
        Set<SessionKey> finished = kept != null ? kept.finished() : Set.of();
        RunAttempts.begin(out, Instant.now(), resumed.map(ResumePoint::spent).orElse(Duration.ZERO));
        RunInterruption interruption = RunInterruption.onExit(console, out, settings.output().commandLine(), recorder::steps,
                recorder::windows);
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        long runStart = System.nanoTime();
        recorder.holdTo(settings.precision().target(), settings.load().repeat());
        pinThisProcess();

        JdkChoice jdks = new JdkChoice(settings, console);
        ServerHosting hosting = ServerPlace.of(settings.serverHost()).hosting(settings, jdks, problems);
        Map<Variant, Path> javas = hosting.javas();
        EnvironmentRecord env = RunEnvironment.of(settings, started, hosting.javasHere(), jdks)
                .withPrice(hosting.price().map(Pricing::section));
        EnvironmentFile.write(out.resolve(EnvironmentFile.NAME), env);
        Optional<String> flameMode = settings.observation().flamegraph();
        Flamegraphs flamegraphs = flameMode.isPresent() ? Flamegraphs.prepare(out.resolve("flame"), flameMode.get()) : null;
        Progress progress = announce(recorder, javas.size(), finished.size());
        if (kept != null) {
            progress.info(String.format(Locale.ROOT, "resuming %s: %d session(s) measured to their end kept (%d window(s)),"
                    + " %d window(s) of sessions cut half-way or failed dropped; measuring the rest with the run's own settings"
                    + " (build %s)", out, finished.size(), kept.kept(), kept.dropped(), settings.output().build()));
        }
        MachineReference machine = startMachineReference(runStart, progress);

        LoadHosts loadHosts = null;
        try {
            env = openServers(hosting, env, progress);
            loadHosts = connectLoadHosts(progress);
            Optional<Pricing> pricing = hosting.price();
            pricing.ifPresent(p -> progress.info("price: " + p.describe() + "; each step's cost per million requests"
                    + " = price per hour × share / (req/s × 3600) × 1e6 (steps.csv's cost_per_million)"));
            LoadHosts hosts = loadHosts;
            new RunSessions(settings, progress, recorder, problems, hosting, under -> new StepMeasurement(under, flamegraphs,
                    hosting, problems, pricing, hosts, machine), finished).run(javas, runStart - resumed.map(ResumePoint::spent)
                    .orElse(Duration.ZERO).toNanos());
        } catch (ConnectionLostException e) {
            // A load host lost while connecting: nothing was measured; the report and environment.json are still written.
            problems.machineLost(e.getMessage());
            progress.info("!! " + e.getMessage() + "; the run stops here");
        } finally {
            if (loadHosts != null) {
                loadHosts.close();
            }
            hosting.close();
            String cost = machine.cost(System.nanoTime() - runStart);
            machine.close();
            if (!cost.isEmpty()) {
                progress.info(cost);
            }
        }
        env = RunEnvironment.finished(hosting.describe(env), settings, started,
                Optional.ofNullable(flamegraphs).map(Flamegraphs::describe), problems.texts(), jdks.skipped());
        EnvironmentFile.write(out.resolve(EnvironmentFile.NAME), env);
        report(out, recorder, progress);
        interruption.finished();
        return recorder.steps();
    }

    /** The run folder's directories and its tables, created empty. */
    private RunRecorder createFolder(Path out) throws IOException {
        Files.createDirectories(out.resolve("raw"));
        Files.createDirectories(out.resolve("logs"));
        return RunRecorder.create(out, settings.observation().counters(), settings.observation().jfr(),
                settings.capacity().isPresent());
    }

    /** Pins the runner (the load driver) to the load CPUs, once the CPUs it may use are counted. */
    private void pinThisProcess() throws IOException {
        Environment.cpus(); // counted before this process is pinned
        Pinning.allowedCpusAtStart();
        Pinning.pin(ProcessHandle.current().pid(), settings.servers().pinning().loadCpus());
    }

    /**
     * The machine speed reference on every CPU of the run, for the whole run ({@link MachineReference});
     * a run whose reference cannot start (its threads cannot be pinned) says so and goes on without it.
     */
    private MachineReference startMachineReference(long runStart, Progress progress) throws InterruptedException {
        try {
            MachineReference machine = MachineReference.start(settings, runStart);
            progress.info(machine.describe());
            return machine;
        } catch (IOException e) {
            problems.report(Problem.of("the machine speed reference: " + e.getMessage() + "; no window's speed is read"));
            progress.info("!! the machine speed reference did not start: " + e.getMessage());
            return MachineReference.NONE;
        }
    }

    /**
     * The progress of a run of {@code variants} variants, once it has said what it will do; a resumed
     * run's plan without the {@code finished} sessions it keeps.
     */
    private Progress announce(RunRecorder recorder, int variants, int finished) {
        int sessions = variants * settings.conditionSets().size() * settings.load().repeat();
        int starts = Math.max(0, sessions - finished);
        double left = sessions == 0 ? 1 : (double) starts / sessions;
        Progress progress = new Progress(console, recorder, (int) Math.round(settings.samplesPerPass() * settings.load().repeat() * left),
                Math.round(settings.measuredMillisPerPass() * settings.load().repeat() * left),
                (int) Math.round(settings.warmUpsPerPass() * settings.load().repeat() * left), settings.load().warmup(), starts);
        progress.info(String.format(Locale.ROOT, "testbed run %s: %d variant(s), scenarios %s, %s per sample after up to %s"
                        + " of warm-up%s%s%s; %s; results in %s", settings.output().runId(), variants, settings.load().scenarios().keySet(),
                human(settings.load().duration()), human(settings.load().warmup()),
                settings.capacity().map(plan -> String.format(Locale.ROOT, ", capacity under %s searched from %s to %s"
                        + " req/s to within %s%%", plan.sla().label(), ResultRow.num(plan.low(), 0),
                        ResultRow.num(plan.high(), 0), ResultRow.num(100 * plan.precision(), 1))).orElse(""),
                forksAndIterations(settings),
                settings.conditionSets().equals(List.of(Conditions.PLAIN)) ? ""
                        : ", conditions " + settings.conditionsLabel() + (settings.conditionSets().size() > 1
                        ? " (every variant under each, started afresh for each)" : ""),
                settings.servers().pinning().describe(), settings.output().out()));
        progress.info(String.format(Locale.ROOT, "planned: %d server start(s), %d warm-up(s) ending once steady, %d sample(s)"
                        + " of %s; at most %s%s", starts, (int) Math.round(settings.warmUpsPerPass() * settings.load().repeat() * left),
                (int) Math.round(settings.samplesPerPass() * settings.load().repeat() * left), human(settings.load().duration()),
                progress.atMost(),
                settings.precision().active() ? String.format(Locale.ROOT, "; then forks added where an interval is wider"
                        + " than the target (%s), within %s for the whole run", settings.precision().target().describe(),
                        settings.precision().budget().map(b -> Progress.format(b.toMillis()))
                                .orElse("1.5 x the planned forks' time")) : ""));
        return progress;
    }

    /** Makes the servers' side ready and records it in environment.json; returns the record with its memcached. */
    private EnvironmentRecord openServers(ServerHosting hosting, EnvironmentRecord env, Progress progress)
            throws IOException, InterruptedException {
        hosting.open(progress);
        EnvironmentRecord opened = hosting.describe(env).withPrice(hosting.price().map(Pricing::section));
        EnvironmentFile.write(settings.output().out().resolve(EnvironmentFile.NAME), opened);
        return opened.withRun(opened.run().withMemcached(hosting.memcachedServers(), hosting.memcachedStartedByRunner()));
    }

    /** With {@code --load-hosts}, JMeter's engines there, connected; else null. */
    private LoadHosts connectLoadHosts(Progress progress) throws IOException, InterruptedException {
        if (settings.loadHosts().isEmpty()) {
            return null;
        }
        LoadHosts loadHosts = LoadHosts.connect(settings.loadHosts().get(), JMeterHome.find(settings.output().root()),
                settings.output().runId(), settings.output().out().resolve("jmeter"), progress::info);
        progress.info("load from JMeter's engines on " + String.join(", ", loadHosts.hosts()) + " (controller here at "
                + loadHosts.localAddress() + "; each step's users divided over them)");
        return loadHosts;
    }

    /** The report and summary.md written, the run's summary and its last line on the console. */
    private void report(Path out, RunRecorder recorder, Progress progress) throws IOException {
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
