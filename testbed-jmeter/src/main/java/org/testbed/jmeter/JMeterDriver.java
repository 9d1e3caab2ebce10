package org.testbed.jmeter;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.testbed.driver.Latency;
import org.testbed.driver.Level;
import org.testbed.driver.LoadDriver;
import org.testbed.driver.LoadResult;
import org.testbed.driver.LoadResult.ClientLatency;
import org.testbed.driver.LoadResult.OperationFigures;
import org.testbed.driver.LoadResult.Throughput;
import org.testbed.driver.LoadResult.TransportCounts;
import org.testbed.driver.Target;
import org.testbed.driver.proc.ClockTicks;
import org.testbed.driver.proc.ProcStat;
import org.testbed.scenario.CrudJourney;
import org.testbed.scenario.Operations;
import org.testbed.scenario.Workload;

/**
 * Load on Apache JMeter's engine: the step's plan generated from the scenario library
 * ({@link JMeterPlan}), run by real JMeter non-GUI ({@code java -jar bin/ApacheJMeter.jar -n -t
 * plan.jmx -l results.jtl}) in a JVM of its own, from a {@link JMeterHome}; then JMeter's
 * per-sample CSV results read back into HdrHistograms ({@link JtlWindow}).
 *
 * <p>Why a JVM of its own rather than JMeter's engine inside the runner: JMeter keeps its settings
 * in process-wide statics, needs its home's property files, and brings a hundred jars; as a child
 * process its CPU is measured exactly (the runner's {@code cutime}/{@code cstime}, as for wrk), it
 * inherits the runner's pinning to the load CPUs, and the same home runs JMeter's remote engines
 * ({@code jmeter-server}) when load comes from several machines, whose samples the controlling
 * JMeter writes into the same results file, so that they merge exactly.
 *
 * <p>The open model ({@link Level#isOpen()}) runs on JMeter's open-model thread group: a new thread
 * at each of the evenly spaced arrivals, sending the next row of one shared sequence on a new
 * connection of its own (testbed-nio's open model reuses idle connections). Its latency is JMeter's,
 * from the moment the thread sends, not from the scheduled arrival: a late thread start is queueing
 * in the load generator it leaves out, so the row's latency is the uncorrected one and the schedule
 * lag, reconstructed from the samples' starts ({@link ArrivalTimes}), says how much it may leave out.
 * In distributed mode every engine runs the whole schedule, so the plan's rate is the step's divided
 * by the engines. The CRUD journey has no open model here ({@link JMeterPlan#OPEN_JOURNEY}), nor do
 * the realistic users' ramp and think time. JMeter measures whole milliseconds,
 * so sub-millisecond percentiles read 0 or 1 ms. The driver's CPU is counted from the moment JMeter
 * says its test started to the moment it says it ended, at the rate it used it then, for the window's
 * length: its JVM start and plan loading, and its closing, reported in the raw file, are left out.
 */
public final class JMeterDriver implements LoadDriver {
    public static final String NAME = "jmeter";
    /** The heap and collector JMeter's own launch script gives it. */
    public static final List<String> JVM_OPTIONS = List.of("-Xms1g", "-Xmx1g", "-XX:MaxMetaspaceSize=256m", "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=100", "-XX:G1ReservePercent=20", "-Djava.awt.headless=true");
    /** What JMeter prints once its plan is loaded and its threads start (on this machine). */
    static final String STARTED = "Starting standalone test";
    /** What the controller prints as it starts the remote engines' threads (with the time, as the local line). */
    static final String REMOTE_STARTED = "Starting distributed test";
    /** The plan's variable naming the engine that took a sample, saved beside each sample ({@code sample_variables}). */
    public static final String ENGINE = "engine";
    /** The property each remote engine is started with to name itself in {@link #ENGINE}. */
    public static final String ENGINE_PROPERTY = "testbed.engine";
    /** What {@link #ENGINE} says when JMeter runs on this machine. */
    static final String LOCAL_ENGINE = "local";
    /** The property telling a remote engine where its users' lanes are. */
    public static final String LANES_PROPERTY = "testbed.lanes";
    /** The property telling a remote engine how many users (threads) it runs. */
    public static final String USERS_PROPERTY = "testbed.users";
    /** What JMeter prints once its threads have ended, before it closes its results and exits. */
    static final String ENDED = "Tidying up";
    /**
     * The settings every step's JMeter runs with, on top of its home's jmeter.properties: the CSV
     * fields {@link JtlReader} reads, the start time as the sample's time stamp, connections kept
     * across a thread's loops, no UDP shutdown port (parallel runs would contend for 4445), and an exit
     * once the test has ended.
     */
    static final List<String> PROPERTIES = List.of(
            "jmeter.save.saveservice.output_format=csv",
            "jmeter.save.saveservice.print_field_names=true",
            "jmeter.save.saveservice.timestamp_format=ms",
            "sampleresult.timestamp.start=true",
            "jmeter.save.saveservice.time=true",
            "jmeter.save.saveservice.label=true",
            "jmeter.save.saveservice.response_code=true",
            "jmeter.save.saveservice.successful=true",
            "jmeter.save.saveservice.assertion_results_failure_message=true",
            "jmeter.save.saveservice.response_message=false",
            "jmeter.save.saveservice.thread_name=false",
            "jmeter.save.saveservice.data_type=false",
            "jmeter.save.saveservice.bytes=false",
            "jmeter.save.saveservice.sent_bytes=false",
            "jmeter.save.saveservice.url=false",
            "jmeter.save.saveservice.latency=false",
            "jmeter.save.saveservice.connect_time=false",
            "jmeter.save.saveservice.idle_time=false",
            "jmeter.save.saveservice.thread_counts=false",
            "jmeter.save.saveservice.sample_count=false",
            "jmeter.save.saveservice.encoding=false",
            "jmeter.save.saveservice.subresults=false",
            "httpclient.reset_state_on_thread_group_iteration=false",
            "sample_variables=" + ENGINE,
            // Distributed mode: RMI without its keystore (the engines are the run's own machines) and
            // the samples sent back in batches, stripped of their bodies (JMeter's default, stated).
            "server.rmi.ssl.disable=true",
            "mode=StrippedBatch",
            "jmeterengine.nongui.port=0",
            // The open model's thread group starts its arrivals from a pool whose idle threads live
            // 60 s: without this, each open step's JMeter lingered a minute after its last sample.
            "jmeterengine.force.system.exit=true");
    /** The epoch milliseconds JMeter prints in parentheses after its start and end lines. */
    private static final Pattern EPOCH = Pattern.compile("\\((\\d{12,})\\)");
    /** How long JMeter may take beyond its scheduled seconds (JVM start, plan loading, the last samples, shutdown). */
    private static final long GRACE_SECONDS = 120;

    private final JMeterHome home;
    private final Path workDir;
    private final Duration requestTimeout;
    private final LoadEngines engines;
    private final JMeterPlan.Pacing pacing;

    /** {@code workDir}: where each step's plan, JMeter log and (while it is read) results go. */
    public JMeterDriver(JMeterHome home, Path workDir, Duration requestTimeout) {
        this(home, workDir, requestTimeout, null);
    }

    /**
     * JMeter's distributed mode: the controller here, the load from {@code engines} on other
     * machines, each running its share of every step's users; null for the load from this machine.
     */
    public JMeterDriver(JMeterHome home, Path workDir, Duration requestTimeout, LoadEngines engines) {
        this(home, workDir, requestTimeout, engines, JMeterPlan.Pacing.NONE);
    }

    /**
     * {@code pacing}: the realistic users' ramp-up and think time; each step's window is then the
     * steady part after the ramp, its figures from the samples that ended in it.
     */
    public JMeterDriver(JMeterHome home, Path workDir, Duration requestTimeout, LoadEngines engines,
                        JMeterPlan.Pacing pacing) {
        this.pacing = pacing;
        this.home = home;
        this.workDir = workDir;
        this.requestTimeout = requestTimeout;
        this.engines = engines;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(Workload workload, Level level) {
        return unsupported(workload, level).isEmpty();
    }

    /** Why this driver cannot run {@code workload} at {@code level}, or empty when it can. */
    public String unsupported(Workload workload, Level level) {
        if (!level.isOpen()) {
            return "";
        }
        if (workload instanceof CrudJourney) {
            return "JMeter has no open model for " + workload.name() + ": " + JMeterPlan.OPEN_JOURNEY;
        }
        if (!pacing.isNone()) {
            return "JMeter's realistic users (--ramp, --think) are a closed model: " + level.label() + " has no users to ramp";
        }
        return "";
    }

    @Override
    public LoadResult run(Target target, Workload workload, Level level, Duration duration, int loadCpus)
            throws IOException, InterruptedException {
        String unsupported = unsupported(workload, level);
        if (!unsupported.isEmpty()) {
            throw new IllegalArgumentException(unsupported);
        }
        home.require();
        long seconds = Math.max(1, (duration.toMillis() + 999) / 1000);
        Files.createDirectories(workDir);
        Path step = Files.createTempDirectory(workDir, workload.name() + (level.isOpen()
                ? "-r" + Math.round(level.rate()) : "-c" + level.concurrency()) + "-");
        int engineCount = engines == null ? 1 : engines.hosts().size();
        // Open: every engine runs the plan's whole schedule, so each gets the step's rate divided.
        Path plan = JMeterPlan.write(step, workload, level.isOpen()
                ? JMeterPlan.Settings.open(target, engineCount, level.rate() / engineCount, seconds, requestTimeout)
                : JMeterPlan.Settings.closed(target, level.concurrency(), seconds, requestTimeout, pacing));
        Path properties = step.resolve("step.properties");
        Files.write(properties, PROPERTIES, StandardCharsets.UTF_8);
        Path results = step.resolve("results.jtl");
        Path log = step.resolve("jmeter.log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        LoadEngines.Running remote = null;
        List<Integer> users = List.of(level.concurrency());
        try {
            if (engines != null) {
                // Open: one sequence per engine (its users' count is not the plan's, whose arrivals are its own).
                users = level.isOpen() ? java.util.Collections.nCopies(engineCount, 1)
                        : LoadEngines.split(level.concurrency(), engines.hosts().size());
                remote = engines.start(properties, engineLanes(step, users), users);
                // The engines send their samples back to this address and port: fixed, so that a firewall can let them in.
                command.add("-Djava.rmi.server.hostname=" + remote.controllerAddress());
            }
            command.addAll(List.of("-jar", home.launcher().toString(), "-n", "-t", plan.toString(), "-l", results.toString(),
                    "-j", log.toString(), "-q", properties.toString()));
            if (remote != null) {
                command.addAll(List.of("-R", remote.remoteHosts(), "-Jclient.rmi.localport=" + remote.controllerPort()));
            }
            return measure(new Invocation(command, step, results, log), new StepLoad(workload, level, seconds, remote, users,
                    JMeterPlan.leadSeconds(pacing)));
        } finally {
            if (remote != null) {
                remote.close();
            }
            // The lanes and the results are tens of MB a step: read, they go; the plan and JMeter's log stay.
            deleteRecursively(step.resolve(JMeterPlan.LANES_DIR));
            Files.deleteIfExists(results);
        }
    }

    /**
     * Each engine's lanes: the step's lanes in order, engine {@code i} taking the next {@code users[i]}
     * of them renamed from 1 (its threads count from 1), as hard links in {@code engine-i/}: the
     * users of all engines together send what as many users on this machine would, never a key twice.
     */
    private static List<Path> engineLanes(Path step, List<Integer> users) throws IOException {
        List<Path> dirs = new ArrayList<>();
        int next = 1;
        for (int engine = 0; engine < users.size(); engine++) {
            Path dir = Files.createDirectories(step.resolve("engine-" + (engine + 1)));
            for (int thread = 1; thread <= users.get(engine); thread++, next++) {
                Files.createLink(dir.resolve(JMeterPlan.laneFile(thread)),
                        step.resolve(JMeterPlan.LANES_DIR).resolve(JMeterPlan.laneFile(next)));
            }
            dirs.add(dir);
        }
        return dirs;
    }

    /**
     * One JMeter run of a step: its command line and the files of the step's directory it reads and writes.
     *
     * @param dir the step's directory (its plan, properties and lanes)
     * @param results the samples JMeter writes (its JTL file)
     * @param log JMeter's own log
     */
    private record Invocation(List<String> command, Path dir, Path results, Path log) {
        String commandLine() {
            return String.join(" ", command);
        }
    }

    /**
     * The step's load as JMeter applies it.
     *
     * @param seconds the measured window, whole seconds
     * @param remote with load hosts, their engines running the step; null when JMeter runs here alone
     * @param users each engine's users (an open step: one sequence per engine)
     * @param leadSeconds the unmeasured seconds before the window: the warm-up, or the realistic users' ramp
     */
    private record StepLoad(Workload workload, Level level, long seconds, LoadEngines.Running remote, List<Integer> users,
                            long leadSeconds) {
        int engineCount() {
            return remote == null ? 1 : users.size();
        }
    }

    /**
     * What a JMeter run that finished gave.
     *
     * @param output what JMeter printed
     * @param window its samples within the window
     * @param arrivals an open step's sends against its schedule; null for a closed one
     * @param cpu the controller's CPU time
     * @param engineCpu each load host's engine's CPU (none when JMeter ran here alone)
     */
    private record Finished(String output, JtlWindow window, ArrivalTimes arrivals, ControllerCpu cpu,
                            List<LoadEngines.EngineCpu> engineCpu) {
    }

    private LoadResult measure(Invocation run, StepLoad load) throws IOException, InterruptedException {
        ProcStat before = ProcStat.self();
        Process jmeter;
        try {
            jmeter = new ProcessBuilder(run.command()).directory(run.dir().toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("JMeter cannot start: " + run.commandLine() + ": " + e.getMessage(), e);
        }
        Output output = Output.follow(jmeter);
        awaitExit(jmeter, run, load, output);
        output.join();
        ProcStat after = ProcStat.self();
        RuntimeException lostAtEnd = load.remote() == null ? null : load.remote().lost();
        if (lostAtEnd != null) {
            throw lostAtEnd;
        }
        List<LoadEngines.EngineCpu> engineCpu = load.remote() == null ? List.of() : load.remote().cpu();
        String text = output.text();
        if (jmeter.exitValue() != 0 || output.atStart() == null || !Files.isRegularFile(run.results())) {
            throw new IOException("JMeter failed (exit " + jmeter.exitValue() + (output.atStart() == null
                    ? ", its test never started" : "") + "): " + run.commandLine() + "\n" + text + logTail(run.log()));
        }
        ArrivalTimes arrivals = load.level().isOpen() ? new ArrivalTimes(load.level().rate() / load.engineCount()) : null;
        JtlWindow window = readWindow(run, load, arrivals, text);
        ControllerCpu cpu = ControllerCpu.of(after.minus(before), output, load.seconds());
        return result(run, load, new Finished(text, window, arrivals, cpu, engineCpu));
    }

    /**
     * Waits for JMeter to end, at most its window, ramp-up and grace; a load host lost meanwhile stops it
     * at once (the controller would wait for that engine until the grace ran out).
     */
    private void awaitExit(Process jmeter, Invocation run, StepLoad load, Output output) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JMeterPlan.leadSeconds(pacing) + load.seconds()
                + JMeterPlan.OPEN_PAUSE_SECONDS + GRACE_SECONDS);
        while (!jmeter.waitFor(250, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
            RuntimeException lost = load.remote() == null ? null : load.remote().lost();
            if (lost != null) {
                jmeter.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw lost;
            }
        }
        if (jmeter.isAlive()) {
            jmeter.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException("JMeter did not finish within " + (load.seconds() + GRACE_SECONDS) + " s: "
                    + run.commandLine() + "\n" + output.text() + logTail(run.log()));
        }
    }

    /**
     * The samples of the window: the {@code seconds} after the warm-up (or the ramp-up: the steady part
     * after it, as Gatling's RealisticUsers measures). The closed model's window counts from the first
     * sample, when its users start. The open model's ends where its schedule does, one arrival after
     * the last sample's start: JMeter times its arrivals from its test's start and, when its thread
     * group starts late (a cold JVM on a busy machine: seconds after its start line), sends the ones
     * due meanwhile at once, so that a window counted from the first sample outlasted the schedule
     * (its last second held no arrival) and one counted from the start line could end before the
     * first send. An open step's sends go to {@code arrivals} too.
     */
    private JtlWindow readWindow(Invocation run, StepLoad load, ArrivalTimes arrivals, String text) throws IOException {
        long[] starts = {Long.MAX_VALUE, Long.MIN_VALUE};
        JtlReader.read(run.results(), s -> {
            starts[0] = Math.min(starts[0], s.startMillis());
            starts[1] = Math.max(starts[1], s.startMillis());
            if (arrivals != null) {
                arrivals.add(s);
            }
        });
        if (starts[0] == Long.MAX_VALUE) {
            throw new IOException("JMeter sent no request: " + run.commandLine() + "\n" + text + logTail(run.log()));
        }
        long windowMillis = TimeUnit.SECONDS.toMillis(load.seconds());
        long windowStart = load.level().isOpen()
                ? starts[1] + Math.round(1000 * load.engineCount() / load.level().rate()) - windowMillis
                : starts[0] + TimeUnit.SECONDS.toMillis(JMeterPlan.leadSeconds(pacing));
        JtlWindow window = new JtlWindow(Operations.of(load.workload()).labels(), windowStart, load.seconds());
        JtlReader.read(run.results(), window::add);
        return window;
    }

    /** The step's figures, and its raw text: the command, JMeter's output, then how each figure was read. */
    private LoadResult result(Invocation run, StepLoad load, Finished finished) {
        Level level = load.level();
        long seconds = load.seconds();
        JtlWindow window = finished.window();
        ArrivalTimes arrivals = finished.arrivals();
        ControllerCpu cpu = finished.cpu();
        List<OperationFigures> operations = window.operations(seconds);
        Latency latency = Latency.ofMicros(window.latency);
        Latency lag = arrivals == null ? Latency.NONE : arrivals.scheduleLag(window.startMillis());
        int peakConnections = arrivals == null ? level.concurrency() : arrivals.peakInFlight();
        String raw = "$ " + run.commandLine() + "\n" + finished.output() + "\n"
                + report(load, window, latency, operations, cpu, run.dir())
                + (arrivals == null ? "" : openModel(level, load.engineCount(), lag, peakConnections))
                + String.format(Locale.ROOT, "JMeter's CPU over its test (%d ms from its start line to its end line):"
                        + " %.0f ms; over its whole life: %.0f ms%n", cpu.testMillis(), cpu.testMs(), cpu.totalMs())
                + (load.remote() == null ? "" : engines(window, finished.engineCpu(), load))
                + (pacing.isNone() ? "" : String.format(Locale.ROOT, "realistic users: started evenly over %d s, a think time of"
                        + " %d-%d ms (uniform) before each request; the window is the %d s after the ramp-up, whose %d samples"
                        + " are left out%n", pacing.rampSeconds(), pacing.think().min().toMillis(),
                        pacing.think().max().toMillis(), seconds, window.beforeWindow));
        // Spread over the load hosts, the busiest one says whether the load side measured itself.
        double busiest = finished.engineCpu().stream().mapToDouble(LoadEngines.EngineCpu::pct).max().orElse(Double.NaN);
        return new LoadResult(NAME, new Throughput(window.requests, window.errors, seconds, window.perSecond(), window.unfinished),
                // Open: JMeter's latency is from the send, so it is the uncorrected one too; the lag is its schedule's.
                arrivals == null ? ClientLatency.closedModel(latency) : new ClientLatency(latency, latency, lag.p99(), lag.max()),
                cpu.windowMs(), peakConnections, TransportCounts.NONE, raw, operations,
                window.intervals(seconds), "", busiest);
    }

    /**
     * JMeter's CPU time, the controller's.
     *
     * @param totalMs over its whole life
     * @param startupMs before its test started (its JVM start, the plan loaded)
     * @param testMs from its test start to its test end (else to its exit)
     * @param testMillis how long its test took by its own lines; 0 when they do not say
     * @param windowMs its test's CPU at the rate it used it over its test, for the window: its test runs a
     *                 little longer than the window (its threads start before the first sample and finish
     *                 their last one after the scheduler's end)
     */
    private record ControllerCpu(double totalMs, double startupMs, double testMs, long testMillis, double windowMs) {

        static ControllerCpu of(ProcStat life, Output output, long seconds) {
            double totalCpuMs = ClockTicks.toMillis(life.childTicks());
            double startupCpuMs = ClockTicks.toMillis(output.atStart().cpu().ticks());
            Moment end = output.atEnd();
            double testCpuMs = Math.max(0, (end != null ? ClockTicks.toMillis(end.cpu().ticks()) : totalCpuMs) - startupCpuMs);
            long testMillis = end != null && output.atStart().epochMillis() > 0 && end.epochMillis() > output.atStart().epochMillis()
                    ? end.epochMillis() - output.atStart().epochMillis() : 0;
            double cpuMs = testMillis > seconds * 1000 ? testCpuMs * seconds * 1000 / testMillis : testCpuMs;
            return new ControllerCpu(totalCpuMs, startupCpuMs, testCpuMs, testMillis, cpuMs);
        }
    }

    /** What the open model's figures include, for the raw file. */
    private static String openModel(Level level, int engines, Latency lag, int peakInFlight) {
        return String.format(Locale.ROOT, "open model: %s in JMeter's OpenModelThreadGroup (%s%s), a new thread per"
                        + " arrival sending one request on a new HttpClient4 connection of its own; latency is JMeter's, from"
                        + " the thread's send (its connect included), NOT from the scheduled arrival: a late thread start is"
                        + " queueing in JMeter that it leaves out (coordinated omission), so lat_p99 equals"
                        + " lat_p99_uncorrected%n"
                        + "schedule lag (each engine's k-th earliest send against its k-th even arrival, the schedule"
                        + " placed as late as its sends allow; a lower bound, whole ms): p50=%.3f p99=%.3f max=%.3f ms; most requests in flight at once"
                        + " (each on its own connection): %d%n",
                level.label(), "rate(" + PlanXml.rateText(level.rate() / engines) + "/sec) even_arrivals",
                engines > 1 ? " on each of " + engines + " engines" : "", lag.p50(), lag.p99(), lag.max(), peakInFlight);
    }

    /** The distributed step by load host: its users' requests and errors in the window, its engine's CPU. */
    private static String engines(JtlWindow window, List<LoadEngines.EngineCpu> cpu, StepLoad load) {
        List<Integer> users = load.users();
        Level level = load.level();
        LoadEngines.Running remote = load.remote();
        String share = level.isOpen()
                ? String.format(Locale.ROOT, "arrivals at %s/s on each of %d load hosts (each engine runs the whole schedule:"
                        + " the step's %s divided), each on a sequence of its own", PlanXml.rateText(level.rate() / users.size()),
                        users.size(), level.label())
                : String.format(Locale.ROOT, "users %s on %d load hosts (JMeter's thread count is per engine: the step's %d"
                        + " divided)", String.join(" + ", users.stream().map(String::valueOf).toList()), users.size(),
                        users.stream().mapToInt(Integer::intValue).sum());
        StringBuilder raw = new StringBuilder(String.format(Locale.ROOT, "distributed: %s; JMeter's controller here (RMI"
                        + " callbacks on %s:%d), engines %s; the samples are those the engines streamed back into the"
                        + " controller's results, each tagged with its engine; percentiles from all of them%n",
                share, remote.controllerAddress(), remote.controllerPort(), remote.remoteHosts()));
        for (int i = 0; i < cpu.size(); i++) {
            long[] counts = window.byEngine().getOrDefault(Integer.toString(i + 1), new long[2]);
            LoadEngines.EngineCpu c = cpu.get(i);
            raw.append(String.format(Locale.ROOT, "load host %d %s: requests=%d errors=%d jmeter-server CPU %.0f ms = %.1f%%"
                    + " of its %d CPU(s) over the %.1f s from its listening to the test's end (/proc/PID/stat there)%n",
                    i + 1, c.host(), counts[0], counts[1], c.cpuMs(), c.pct(), c.cpus(), c.seconds()));
        }
        return raw.toString();
    }

    /**
     * JMeter's output as it prints it, copied on a thread of its own, with its CPU time at the moments
     * it says its test started and ended.
     */
    private static final class Output {
        private final StringBuilder text = new StringBuilder();
        private final AtomicReference<Moment> atStart = new AtomicReference<>();
        private final AtomicReference<Moment> atEnd = new AtomicReference<>();
        private final Thread reader;

        private Output(Process jmeter) {
            reader = new Thread(() -> readOutput(jmeter, text, atStart, atEnd), "jmeter-output");
            reader.setDaemon(true);
        }

        static Output follow(Process jmeter) {
            Output output = new Output(jmeter);
            output.reader.start();
            return output;
        }

        /** Waits for the last of it once JMeter has exited. */
        void join() throws InterruptedException {
            reader.join(10_000);
        }

        String text() {
            synchronized (text) {
                return text.toString();
            }
        }

        /** When its test started; null when it never said. */
        Moment atStart() {
            return atStart.get();
        }

        /** When its test ended; null when it never said (its CPU up to its exit counts). */
        Moment atEnd() {
            return atEnd.get();
        }
    }

    /** Copies JMeter's output; reads its CPU time the moments it says its test started and ended. */
    private static void readOutput(Process jmeter, StringBuilder output, AtomicReference<Moment> atStart,
                                   AtomicReference<Moment> atEnd) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(jmeter.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (atStart.get() == null && (line.contains(STARTED) || line.contains(REMOTE_STARTED))) {
                    try {
                        atStart.set(new Moment(ProcStat.read(jmeter.pid()), epochMillis(line)));
                    } catch (IOException | RuntimeException gone) {
                        atStart.set(new Moment(new ProcStat(0, 0, 0, 0, 0), 0)); // exited already: all its CPU counts
                    }
                } else if (atStart.get() != null && atEnd.get() == null && line.contains(ENDED)) {
                    try {
                        atEnd.set(new Moment(ProcStat.read(jmeter.pid()), epochMillis(line)));
                    } catch (IOException | RuntimeException gone) {
                        // exited already: its CPU up to its exit counts
                    }
                }
                synchronized (output) {
                    output.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            synchronized (output) {
                output.append("(JMeter's output could not be read: ").append(e.getMessage()).append(")\n");
            }
        }
    }

    /** JMeter's CPU time when it printed a line, and the time the line names (0 when it names none). */
    private record Moment(ProcStat cpu, long epochMillis) {
    }

    private static long epochMillis(String line) {
        Matcher m = EPOCH.matcher(line);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static String report(StepLoad load, JtlWindow window, Latency l, List<OperationFigures> operations,
                                 ControllerCpu cpu, Path step) {
        Level level = load.level();
        long seconds = load.seconds();
        double cpuMs = cpu.windowMs();
        double startupCpuMs = cpu.startupMs();
        StringBuilder raw = new StringBuilder();
        raw.append(String.format(Locale.ROOT, "driver %s (Apache JMeter %s non-GUI, HttpClient4 with keep-alive), %s,"
                        + " window %d s after the warm-up; plan %s%n", NAME, JMeterPlan.JMETER_VERSION, level.isOpen()
                        ? "open model at " + level.label() : "closed model with " + level.concurrency()
                        + " threads (one connection each)", seconds, step.resolve(JMeterPlan.PLAN_FILE)));
        raw.append(String.format(Locale.ROOT, "requests=%d errors=%d rps=%.1f driver_cpu_ms=%.0f (from JMeter's test start to"
                        + " its end; its JVM start and plan loading took %.0f ms more) unfinished=%d (in flight when the window"
                        + " ended: let finish later or interrupted by JMeter, not errors) after_window=%d%n", window.requests,
                window.errors, window.requests / (double) seconds, cpuMs, startupCpuMs, window.unfinished, window.afterWindow));
        raw.append(String.format(Locale.ROOT, "warm-up: %d s of the step's load before the window, unmeasured (a fresh JMeter"
                + " JVM compiles meanwhile); %d samples before the window left out%n", load.leadSeconds(),
                window.beforeWindow));
        raw.append(String.format(Locale.ROOT, "latency ms (JMeter measures whole milliseconds): p50=%.3f p90=%.3f p99=%.3f"
                + " p99.9=%.3f max=%.3f%n", l.p50(), l.p90(), l.p99(), l.p999(), l.max()));
        for (OperationFigures o : operations) {
            Latency ol = o.latency();
            raw.append(String.format(Locale.ROOT, "operation %s: requests=%d errors=%d rps=%.1f latency ms: p50=%.3f p90=%.3f"
                            + " p99=%.3f p99.9=%.3f max=%.3f%n", o.name(), o.requests(), o.errors(), o.rps(), ol.p50(),
                    ol.p90(), ol.p99(), ol.p999(), ol.max()));
        }
        if (window.unlabelled > 0) {
            raw.append("samples of no operation of the workload: ").append(window.unlabelled).append('\n');
        }
        raw.append("requests per second of the window:");
        for (long count : window.perSecond()) {
            raw.append(' ').append(count);
        }
        raw.append('\n');
        window.failures().forEach((reason, count) -> raw.append("failure x").append(count).append(": ").append(reason).append('\n'));
        raw.append("\nHdrHistogram percentile distribution (values in microseconds):\n");
        raw.append(distribution(window.latency));
        return raw.toString();
    }

    private static String distribution(Histogram micros) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        micros.outputPercentileDistribution(new PrintStream(out, true, StandardCharsets.UTF_8), 5, 1.0);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String logTail(Path log) {
        try {
            if (!Files.isRegularFile(log)) {
                return "";
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "\nthe end of " + log + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "\n(" + log + " could not be read: " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
