package org.testbed.runner.step;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.counters.CounterReading;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runner.jfr.RecordingLine;
import org.testbed.runner.jfr.WindowSummary;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.host.EventCounting;
import org.testbed.runner.host.FlightRecording;
import org.testbed.runner.host.MachineLabel;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.probe.Probes;
import org.testbed.runner.problem.Problem;
import org.testbed.runner.problem.Problems;
import org.testbed.driver.Level;
import org.testbed.driver.LoadDriver;
import org.testbed.driver.LoadResult;
import org.testbed.driver.NioHttpDriver;
import org.testbed.driver.SecondListener;
import org.testbed.driver.Target;
import org.testbed.driver.WindowWatcher;
import org.testbed.driver.WrkDriver;
import org.testbed.jmeter.JMeterDriver;
import org.testbed.jmeter.JMeterHome;
import org.testbed.jmeter.LoadEngines;
import org.testbed.runner.proc.GcCounters;
import org.testbed.runner.proc.GcSampler;
import org.testbed.runner.proc.ProcStatus;
import org.testbed.runfolder.stats.Spread;
import org.testbed.runfolder.stats.SteadyState;
import org.testbed.runfolder.timeline.GcReading;
import org.testbed.runfolder.timeline.GcReadingsCsv;
import org.testbed.scenario.Workload;
import org.testbed.variant.Variant;

/**
 * Measures one step once: reads the server before, applies the load for the step's window (with a
 * flame graph if asked), reads the server after, and turns it into a {@link Sample} whose raw file
 * and interval log (the latencies second by second, {@code .hlog} beside the raw file) are written
 * at once; for a server on this machine, with its GC counters read through the window beside them
 * ({@code .gc.csv}); with {@code --jfr}, a flight recording of the server beside them ({@code .jfr}),
 * summarised over the window.
 */
final class StepMeasurement {
    private final RunSettings settings;
    private final Flamegraphs flamegraphs;
    private final long memcachedPid;
    private final Problems problems;
    private final Optional<Pricing> pricing;
    private final LoadEngines loadHosts;
    /** The reasons already printed for steps the chosen driver cannot run. */
    private final Set<String> fallbacks = new HashSet<>();

    /**
     * @param flamegraphs the profiler, or null without {@code --flamegraph}
     * @param memcachedPid the runner's own memcached, whose CPU counts on the load side; -1 when none
     * @param problems where a failure that does not stop the step (a lost flame graph) is reported
     * @param pricing the run's price on the server's machine, or empty without one
     * @param loadHosts with {@code --load-hosts}: JMeter's engines there, or null
     */
    StepMeasurement(RunSettings settings, Flamegraphs flamegraphs, long memcachedPid, Problems problems,
                    Optional<Pricing> pricing, LoadEngines loadHosts) {
        this.loadHosts = loadHosts;
        this.pricing = pricing;
        this.settings = settings;
        this.flamegraphs = flamegraphs;
        this.memcachedPid = memcachedPid;
        this.problems = problems;
    }

    /** {@code live}: told each second of the window while it runs (testbed-nio's steps only). */
    Sample measure(Variant variant, RunningServer server, JdkInfo jdk, Workload workload, Level level, Target target,
                   int repeat, int iteration, WarmUp warmUp, SecondListener live) throws IOException, InterruptedException {
        LoadDriver driver = driverFor(workload, level);
        long pid = server.pid();
        String slug = workload.name() + "-" + ResultRow.StepKey.levelSlug(level.concurrency(), level.rate()) + settings.conditionsSuffix()
                + (settings.load().repeat() > 1 ? "-r" + repeat : "") + (settings.load().iterations() > 1 ? "-i" + iteration : "");
        Path rawFile = settings.output().out().resolve("raw").resolve(variant.name()).resolve(slug + ".txt");
        Files.createDirectories(rawFile.getParent());
        int loadCpus = settings.servers().pinning().loadCpuCount();

        // Started before the first reading and stopped after the last: what starting and stopping a
        // recording cost the server (a JVM's first JFR.start loads the recorder) stays out of the step's CPU.
        Path jfrFile = rawFile.resolveSibling(slug + ".jfr");
        FlightRecording recording = settings.observation().jfr() ? startRecording(variant, server, slug) : null;
        ServerSnapshot before = ServerSnapshot.before(server, memcachedPid);
        String startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        Path flameFile = settings.output().out().resolve("flame").resolve(variant.name()).resolve(slug + ".html");
        Flamegraphs.Profiled profiled = flamegraphs != null
                ? startFlamegraph(variant, server.profiled(flamegraphs), flameFile, slug) : null;
        EventCounting perf = settings.observation().counters()
                ? server.countEvents(settings.output().out().resolve("counters").resolve(variant.name()).resolve(slug + ".txt"))
                : null;
        MetricsScraper scraper = settings.conditions().metrics() ? MetricsScraper.start(server.baseUri()) : null;
        GcSampler gcSampler = server.localPerfData().map(f -> GcSampler.start(f, GcReadingsCsv.PERIOD_MILLIS)).orElse(null);
        List<GcReading> gcReadings = List.of();
        Probes probes = Probes.forStep();
        LoadResult result;
        boolean drawn = false;
        CounterReading counted = null;
        probes.beforeWindow();
        Instant windowStart = Instant.now();
        Instant windowEnd;
        try {
            result = driver instanceof NioHttpDriver nio
                    ? nio.run(target, workload, level, settings.load().duration(), loadCpus, WindowWatcher.NEVER, live)
                    : driver.run(target, workload, level, settings.load().duration(), loadCpus);
        } finally {
            windowEnd = Instant.now();
            if (gcSampler != null) {
                gcReadings = gcSampler.stop();
            }
            if (scraper != null) {
                scraper.close();
            }
            if (perf != null) {
                counted = perf.stop();
            }
            if (profiled != null) {
                drawn = stopFlamegraph(variant, profiled, flameFile, slug);
            }
        }
        ServerSnapshot after = ServerSnapshot.after(server, memcachedPid);
        probes.afterWindow(result);
        Measured measured = probes.summarise();
        WindowSummary recorded = recording == null ? null : stopRecording(variant, recording, jfrFile, slug, windowStart, windowEnd);
        ProcStatus memory = after.memory();
        MachineLabel machine = server.machine();
        LoadAccounting load = LoadAccounting.of(before, after, result, settings.servers().pinning(), settings.load().saturationPct());
        GcCounters gc = after.gc().minus(before.gc());
        SaturationAccounting saturation = SaturationAccounting.of(before, after, result.requests());

        ResultRow.StepKey key = new ResultRow.StepKey(variant.name(), workload.name(), level.isOpen() ? 0 : level.concurrency(),
                level.isOpen() ? level.rate() : 0, settings.conditions());
        ResultRow row = new ResultRow(
                new ResultRow.Origin(settings.output().runId(), startedAt, machine.host(), machine.arch(), machine.cpuModel(),
                        machine.cpus(), jdk.label()),
                key, variant.mode(), result.driver(),
                new ResultRow.Throughput(result.seconds(), result.requests(), result.errors(), result.rps()),
                new ResultRow.Latencies(result.latency().p50(), result.latency().p90(), result.latency().p99(),
                        result.latency().p999(), result.latency().max()),
                new ResultRow.ServerCost(load.userMsPerReq(), load.sysMsPerReq(), memory.rssMb(), gc.count(), gc.millis()));
        String raw = settings.output().out().relativize(rawFile).toString();
        Optional<String> flame = drawn ? Optional.of(settings.output().out().relativize(flameFile).toString()) : Optional.empty();
        Optional<String> heatmap = drawn
                ? Optional.of(settings.output().out().relativize(Flamegraphs.heatmap(flameFile)).toString()) : Optional.empty();
        int delayMs = workload.name().equals("delay") ? settings.load().delayMs() : 0;
        SteadyState.Trend trend = SteadyState.trend(result.windowRps());
        StepRecord.OpenModel open = level.isOpen()
                ? new StepRecord.OpenModel(result.uncorrected().p99(), result.scheduleLagP99Ms()) : StepRecord.OpenModel.CLOSED;
        StepRecord step = new StepRecord(key,
                new StepRecord.DriverSide(result.driver(), result.driverCpuMs(), load.driverPct(), result.peakConnections(),
                        result.tlsHandshakes(), result.gzipResponses()),
                load.serverSide(saturation.figures()), load.loadSide(),
                new StepRecord.Setup(settings.servers().pinning().serverCpus(), settings.servers().pinning().loadCpus(),
                        delayMs, settings.servers().threads(), settings.capacity().map(plan -> plan.sla().label()).orElse("")),
                new StepRecord.Files(raw, flame, heatmap),
                new StepRecord.Repeats(1, Spread.single(row.throughput().rps()), Spread.single(row.latency().p99Ms()),
                        Spread.single(row.server().cpuMsPerReq())),
                new StepRecord.Steadiness(warmUp.seconds(), trend.steady() ? 0 : 1, warmUp.settled() ? 0 : 1), open,
                pricing.map(p -> StepRecord.Cost.of(p, row.throughput().rps(), Spread.single(row.throughput().rps())))
                        .orElse(StepRecord.Cost.NONE), StepRecord.Precision.NONE, measured);
        SampleRecord sample = new SampleRecord(key, repeat, iteration,
                new SampleRecord.Figures(row.throughput().rps(), row.latency().p99Ms(), row.server().cpuMsPerReq(),
                        row.throughput().errors()),
                open, new SampleRecord.Caveats(warmUp.seconds(), warmUp.settled(), trend.steady(), load.otherLoadPct(),
                        load.saturated()),
                raw, result.tlsHandshakes(), result.gzipResponses(), saturation.figures(), measured);

        CounterRecord counters = counted == null ? null : CounterRecord.of(row.key(), repeat, result.requests(), counted);
        // A driver that cannot break the step down says why, in a row of its own, rather than leave none.
        List<OperationRecord> operations = !result.operationsUnavailable().isEmpty()
                ? List.of(OperationRecord.notAvailable(key, repeat, iteration, result.operationsUnavailable(),
                        result.requests(), result.errors(), result.rps()))
                : result.operations().stream()
                .map(o -> new OperationRecord(key, repeat, iteration, o.name(), o.requests(), o.errors(), o.rps(),
                        new ResultRow.Latencies(o.latency().p50(), o.latency().p90(), o.latency().p99(),
                                o.latency().p999(), o.latency().max())))
                .toList();

        String rawText = RawStepLog.text(variant, pid, jdk.label(), workload.name(), level, repeat, startedAt,
                before, after, memory.rssMb(), memory.vmHwmKb() / 1024.0, load, saturation.describe(result.requests()), loadCpus,
                steadiness(trend, warmUp), result);
        if (scraper != null) {
            rawText += "\n" + scraper.describe() + "\n";
        }
        if (counted != null) {
            rawText += "\nperf stat of the server over the step (totals):\n" + counted.describe();
        }
        if (!result.intervals().isEmpty()) {
            Path hlog = rawFile.resolveSibling(slug + ".hlog");
            if (gcReadings.size() > 1) {
                GcReadingsCsv.TABLE.write(GcReadingsCsv.beside(hlog), gcReadings);
            }
            result.intervals().write(hlog, List.of(String.format(Locale.ROOT,
                    "variant %s (%s), scenario %s, level %s, conditions %s, repeat %d, iteration %d, driver %s, started %s",
                    variant.name(), variant.mode(), workload.name(), level.label(), settings.conditions().label(), repeat,
                    iteration, result.driver(), startedAt)));
        }
        JfrRecord jfr = recorded == null ? null
                : recorded.record(key, repeat, iteration, result.requests(), settings.output().out().relativize(jfrFile).toString());
        if (jfr != null) {
            rawText += "\n" + RecordingLine.describe(jfr, recorded) + "\n";
        }
        Files.writeString(rawFile, rawText, StandardCharsets.UTF_8);
        return new Sample(row, step, sample, counters, operations, jfr);
    }

    /** The run's price on the server's machine, or empty without one. */
    Optional<Pricing> pricing() {
        return pricing;
    }

    private static String steadiness(SteadyState.Trend trend, WarmUp warmUp) {
        return String.format(Locale.ROOT, "after %.1f s of warm-up (%s); throughput over the window: first third %.0f req/s,"
                        + " last third %.0f req/s, change %+.1f%% against a threshold of %.1f%%: %s", warmUp.seconds(),
                warmUp.settled() ? "the server was steady" : "NOT SETTLED: it ended at the --warmup limit",
                trend.firstMedian(), trend.lastMedian(), 100 * trend.change(), 100 * trend.threshold(),
                trend.steady() ? "steady" : "NOT STEADY (still trending; its figures describe a moving target)");
    }

    /** A recording started, or null (and a problem said) when the server's JDK would not start one. */
    private FlightRecording startRecording(Variant variant, RunningServer server, String slug) {
        try {
            return server.record("testbed-" + slug, WindowSummary.SETTINGS);
        } catch (IOException e) {
            problems.report(Problem.of(variant.name() + " " + slug + " flight recording: " + e.getMessage()));
            return null;
        }
    }

    /**
     * Stops the recording into {@code file} and summarises the window in it, placed on the server's
     * clock; null (and a problem said) when it could not be had.
     */
    private WindowSummary stopRecording(Variant variant, FlightRecording recording, Path file, String slug, Instant from,
                                        Instant to) {
        try {
            Duration ahead = recording.stop(file);
            return WindowSummary.of(file, from.plus(ahead), to.plus(ahead));
        } catch (IOException | RuntimeException e) {
            problems.report(Problem.of(variant.name() + " " + slug + " flight recording: " + e.getMessage()));
            return null;
        }
    }

    /**
     * Starts the profiler in the server, or says why not and returns null: a server that cannot be
     * profiled (its JVM emulated, no jcmd there) is still measured, without a flame graph. A reason
     * that holds for every step of the variant is reported once.
     */
    private Flamegraphs.Profiled startFlamegraph(Variant variant, Flamegraphs.Profiled profiled, Path file, String slug) {
        Optional<String> never = profiled.unprofilable();
        if (never.isPresent()) {
            String problem = variant.name() + " flame graphs: " + never.get();
            problems.report(Problem.forEveryStep(problem));
            return null;
        }
        try {
            Files.createDirectories(file.getParent());
            flamegraphs.start(profiled, file);
            return profiled;
        } catch (IOException e) {
            problems.report(Problem.of(variant.name() + " " + slug + " flame graph: " + e.getMessage()));
            return null;
        }
    }

    /** Whether the flame graph {@code file} and its heat map were drawn; a failure is a problem, not the step's end. */
    private boolean stopFlamegraph(Variant variant, Flamegraphs.Profiled profiled, Path file, String slug) {
        try {
            flamegraphs.stop(profiled, file);
            return true;
        } catch (IOException e) {
            problems.report(Problem.of(variant.name() + " " + slug + " flame graph: " + e.getMessage()));
            return false;
        }
    }

    private LoadDriver driverFor(Workload workload, Level level) {
        NioHttpDriver nio = new NioHttpDriver(settings.load().timeout(), settings.load().maxConnections(), settings.conditions().gzip());
        // Neither wrk's script nor the JMeter plan inflates gzip bodies: with --gzip every step is testbed-nio's.
        if (settings.conditions().gzip()) {
            return nio;
        }
        LoadDriver other = switch (settings.load().driver()) {
            case WrkDriver.NAME -> {
                Path wrk = WrkDriver.find();
                if (wrk == null) {
                    throw new IllegalStateException("--driver wrk: wrk is not installed (apt-get install wrk)");
                }
                yield new WrkDriver(wrk, settings.output().out().resolve("wrk"), settings.load().timeout());
            }
            case JMeterDriver.NAME -> new JMeterDriver(JMeterHome.find(settings.output().root()).require(),
                    settings.output().out().resolve("jmeter"), settings.load().timeout(), loadHosts, settings.load().pacing());
            default -> null;
        };
        // wrk has no open model and cannot keep the journey's order, nor can JMeter's open arrivals:
        // those steps use testbed-nio, and the run says why once per reason.
        if (other == null || other.supports(workload, level)) {
            return other != null ? other : nio;
        }
        String why = other instanceof JMeterDriver jmeter ? jmeter.unsupported(workload, level)
                : other.name() + " cannot drive " + workload.name() + " at " + level.label();
        if (fallbacks.add(why)) {
            System.out.println("-- " + why + ": testbed-nio measures that step");
        }
        return nio;
    }
}
