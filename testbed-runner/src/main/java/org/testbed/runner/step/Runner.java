package org.testbed.runner.step;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runner.csv.ResultRow;
import org.testbed.runner.csv.ResultsCsv;
import org.testbed.runner.csv.StepRecord;
import org.testbed.runner.csv.StepsCsv;
import org.testbed.runner.env.Environment;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.load.Level;
import org.testbed.runner.load.LoadDriver;
import org.testbed.runner.load.LoadResult;
import org.testbed.runner.load.NioHttpDriver;
import org.testbed.runner.load.Scenarios;
import org.testbed.runner.load.Target;
import org.testbed.runner.load.WrkDriver;
import org.testbed.runner.proc.ClockTicks;
import org.testbed.runner.proc.CpuTimes;
import org.testbed.runner.proc.GcCounters;
import org.testbed.runner.proc.ProcStat;
import org.testbed.runner.proc.ProcStatus;
import org.testbed.runner.report.ReportWriter;
import org.testbed.runner.stats.Spread;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.Workload;
import org.testbed.variant.Jdks;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantProcess;

/**
 * One run: memcached, then for each variant start it from its jar (pinned), check its health,
 * and for each scenario preload, warm up and run the steps, measuring the server from /proc before
 * and after each step; write a CSV row, a steps.csv row and a raw file per step; at the end the
 * environment and the report.
 */
public final class Runner {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(30);
    private static final int WARMUP_MAX_USERS = 64;
    /** Busy CPU time not accounted for by the run's processes above which a step is called noisy. */
    static final double NOISE_PCT = 15;

    private final RunSettings settings;
    private final PrintStream console;
    private final Map<Path, JdkInfo> jdks = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();
    private Flamegraphs flamegraphs;
    /** The runner's own memcached, whose CPU counts on the load side when it shares the load CPUs. */
    private long memcachedPid = -1;

    public Runner(RunSettings settings, PrintStream console) {
        this.settings = settings;
        this.console = console;
    }

    /** Runs everything; returns the number of steps that produced a row. */
    public int run() throws IOException, InterruptedException {
        Path out = settings.out();
        Files.createDirectories(out.resolve("raw"));
        Files.createDirectories(out.resolve("logs"));
        Path resultsCsv = out.resolve(ResultsCsv.FILE);
        Path stepsCsv = out.resolve(StepsCsv.FILE);
        ResultsCsv.create(resultsCsv);
        StepsCsv.create(stepsCsv);
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Pinning pinning = settings.pinning();
        Environment.cpus(); // counted before this process is pinned
        Pinning.allowedCpusAtStart();
        Pinning.pin(ProcessHandle.current().pid(), pinning.loadCpus());

        Map<Variant, Path> javas = chooseJdks();
        ObjectNode env = environment(started, javas);
        Environment.write(out.resolve(Environment.FILE), env);

        if (settings.flamegraph()) {
            flamegraphs = Flamegraphs.prepare(out.resolve("flame"));
        }
        Progress progress = new Progress(console, settings.stepCount(), settings.plannedMillis(), javas.size());
        progress.info(String.format(Locale.ROOT, "testbed run %s: %d variant(s), scenarios %s, %s per step after %s warm-up; %s; results in %s",
                settings.runId(), javas.size(), settings.scenarios().keySet(), human(settings.duration()),
                human(settings.warmup()), pinning.describe(), out));
        progress.info("ETA " + progress.eta());

        MemcachedProcess memcached = null;
        String memcachedServers = settings.memcachedServers();
        int rows = 0;
        try {
            if (memcachedServers == null) {
                memcached = MemcachedProcess.start(0, 1024);
                Pinning.pin(memcached.pid(), pinning.memcachedCpus());
                memcachedServers = memcached.address();
                memcachedPid = memcached.pid();
                progress.info("memcached started on " + memcachedServers + " (pid " + memcached.pid() + ")");
            } else {
                progress.info("using MEMCACHED_SERVERS=" + memcachedServers);
            }
            ((ObjectNode) env.get("run")).put("memcached_servers", memcachedServers);
            ((ObjectNode) env.get("run")).put("memcached_started_by_runner", memcached != null);
            int index = 0;
            for (Map.Entry<Variant, Path> entry : javas.entrySet()) {
                index++;
                long t0 = System.nanoTime();
                long planned = 0;
                try {
                    int[] counts = runVariant(index, entry.getKey(), entry.getValue(), memcachedServers, progress,
                            resultsCsv, stepsCsv);
                    rows += counts[0];
                    planned = counts[1];
                } catch (IOException | RuntimeException e) {
                    String problem = entry.getKey().name() + ": " + e.getMessage();
                    problems.add(problem);
                    progress.info("!! " + problem.lines().findFirst().orElse(problem) + " (skipped; see "
                            + out.relativize(out.resolve("logs")) + ")");
                }
                progress.variantDone(Math.max(0, (System.nanoTime() - t0) / 1_000_000 - planned));
            }
        } finally {
            if (memcached != null) {
                memcached.close();
            }
        }
        ObjectNode run = (ObjectNode) env.get("run");
        run.put("finished_at", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        run.put("wall_time_s", Duration.between(started, Instant.now()).toSeconds());
        if (flamegraphs != null) {
            run.put("flamegraph", flamegraphs.describe());
        }
        ArrayNode p = run.putArray("problems");
        problems.forEach(p::add);
        ArrayNode s = run.putArray("skipped");
        skipped.forEach(s::add);
        Environment.write(out.resolve(Environment.FILE), env);
        Path report = ReportWriter.write(out);
        progress.info(String.format(Locale.ROOT, "done in %s: %d row(s) in %s, report %s%s", progress.elapsed(), rows,
                resultsCsv, report, problems.isEmpty() ? "" : "; problems: " + problems.size()));
        return rows;
    }

    public List<String> problems() {
        return problems;
    }

    /** The JDK of each variant; variants no available JDK can run are left out, with a message. */
    private Map<Variant, Path> chooseJdks() throws IOException {
        Map<Variant, Path> chosen = new LinkedHashMap<>();
        for (Variant variant : settings.variants()) {
            Path java = settings.java();
            if (java != null) {
                JdkInfo info = jdk(java);
                if (info.feature() < variant.minJdk()) {
                    String why = variant.name() + " needs JDK " + variant.minJdk() + "+, --java " + java + " is "
                            + info.feature() + ": not run";
                    skipped.add(why);
                    console.println("-- " + why);
                    continue;
                }
                chosen.put(variant, java);
            } else {
                Java found = findJava(variant.minJdk());
                if (found == null) {
                    String why = variant.name() + ": " + Jdks.missing(variant.minJdk());
                    skipped.add(why);
                    console.println("-- " + why);
                    continue;
                }
                chosen.put(variant, found.path());
            }
        }
        if (settings.java() == null) {
            List<String> labels = chosen.values().stream().distinct().map(j -> jdkOrNull(j)).toList();
            if (labels.size() > 1) {
                console.println("-- note: variants run on different JDKs " + labels
                        + " (virtual threads need 21+); pass --java to run all on one");
            }
        }
        return chosen;
    }

    private record Java(Path path) {
    }

    private Java findJava(int minJdk) {
        return Jdks.javaFor(minJdk).map(Java::new).orElse(null);
    }

    private String jdkOrNull(Path java) {
        try {
            return jdk(java).label();
        } catch (IOException e) {
            return java.toString();
        }
    }

    private JdkInfo jdk(Path java) throws IOException {
        JdkInfo info = jdks.get(java);
        if (info == null) {
            List<String> probe = new ArrayList<>(Pinning.prefix(settings.pinning().serverCpus()));
            // Probed under the server's pinning: the JVM picks its collector and heap from the CPUs it sees.
            info = probeUnder(probe, java);
            jdks.put(java, info);
        }
        return info;
    }

    private JdkInfo probeUnder(List<String> prefix, Path java) throws IOException {
        if (prefix.isEmpty()) {
            return JdkInfo.probe(java, settings.jvmArgs());
        }
        Path wrapper = Files.createTempFile("testbed-java-", ".sh");
        try {
            Files.writeString(wrapper, "#!/bin/sh\nexec " + String.join(" ", prefix) + " '" + java + "' \"$@\"\n");
            wrapper.toFile().setExecutable(true);
            JdkInfo info = JdkInfo.probe(wrapper, settings.jvmArgs());
            return new JdkInfo(java.toString(), info.home(), info.feature(), info.vendor(), info.version(),
                    info.vmName(), info.flags());
        } finally {
            Files.deleteIfExists(wrapper);
        }
    }

    private ObjectNode environment(Instant started, Map<Variant, Path> javas) throws IOException {
        ObjectNode env = Environment.JSON.createObjectNode();
        ObjectNode run = env.putObject("run");
        run.put("run_id", settings.runId());
        run.put("started_at", started.toString());
        run.put("profile", settings.profile());
        ArrayNode args = run.putArray("command_line");
        settings.commandLine().forEach(args::add);
        ObjectNode scenarios = run.putObject("scenarios");
        settings.scenarios().forEach((name, levels) -> {
            ArrayNode a = scenarios.putArray(name);
            levels.forEach(l -> a.add(l.label()));
        });
        run.put("duration_s", settings.duration().toMillis() / 1000.0);
        run.put("warmup_s", settings.warmup().toMillis() / 1000.0);
        run.put("driver", settings.driver());
        run.put("threads", settings.threads());
        run.put("delay_ms", settings.delayMs());
        run.put("payload_bytes", settings.payloadSize());
        run.put("max_connections", settings.maxConnections());
        run.put("request_timeout_s", settings.timeout().toSeconds());
        run.put("saturation_pct", settings.saturationPct());
        ArrayNode jvmArgs = run.putArray("jvm_args");
        settings.jvmArgs().forEach(jvmArgs::add);
        ObjectNode pin = env.putObject("pinning");
        pin.put("server_cpus", settings.pinning().serverCpus());
        pin.put("memcached_cpus", settings.pinning().memcachedCpus());
        pin.put("load_cpus", settings.pinning().loadCpus());
        pin.put("description", settings.pinning().describe());
        pin.put("allowed_cpus", Pinning.allowedCpus().toString());
        env.set("machine", Environment.machine());
        ArrayNode jdkArray = env.putArray("jdks");
        for (Path java : javas.values().stream().distinct().toList()) {
            jdkArray.add(Environment.jdk(jdk(java)));
        }
        ObjectNode runner = env.putObject("runner_jvm");
        runner.put("version", System.getProperty("java.runtime.version"));
        runner.put("vendor", System.getProperty("java.vendor"));
        ObjectNode variantJdks = env.putObject("variant_jdks");
        javas.forEach((v, j) -> variantJdks.put(v.name(), jdkOrNull(j)));
        ObjectNode tools = env.putObject("tools");
        Path wrk = WrkDriver.find();
        tools.put("wrk", wrk == null ? "not installed" : Environment.command(wrk.toString(), "-v").lines().findFirst().orElse(""));
        tools.put("memcached", Environment.command("memcached", "-V").strip());
        tools.put("taskset", Pinning.tasksetAvailable());
        env.set("manifest", Environment.manifest(settings.variants()));
        return env;
    }

    /** Returns {rows written, planned milliseconds spent}. */
    private int[] runVariant(int index, Variant variant, Path java, String memcachedServers, Progress progress,
                             Path resultsCsv, Path stepsCsv) throws IOException, InterruptedException {
        JdkInfo jdk = jdk(java);
        List<String> command = new ArrayList<>(Pinning.prefix(settings.pinning().serverCpus()));
        command.add(java.toString());
        command.addAll(settings.jvmArgs());
        if (settings.flamegraph()) {
            command.addAll(Flamegraphs.jvmArgs(jdk.feature()));
        }
        command.addAll(List.of("-jar", variant.jarIn(settings.root()).toString(), "--mode", variant.mode(),
                "--host", "127.0.0.1", "--port", "0", "--threads", Integer.toString(settings.threads()),
                "--memcached-servers", memcachedServers));
        if (!Files.isRegularFile(variant.jarIn(settings.root()))) {
            throw new IOException("the jar " + variant.jar() + " is missing (./testbed run builds it; or ./mvnw -pl "
                    + variant.module() + " -am package -DskipTests)");
        }
        Path log = settings.out().resolve("logs").resolve(variant.name() + ".log");
        progress.info(String.format(Locale.ROOT, "== %s (%s, JDK %s): starting", variant.name(), variant.mode(), jdk.label()));
        int rows = 0;
        long planned = 0;
        try (VariantProcess server = VariantProcess.start(variant, command, log, START_TIMEOUT)) {
            Target target = Target.of(server.baseUri());
            awaitHealthy(server.baseUri());
            Scenarios scenarios = new Scenarios(settings.runId(), settings.payloadSize(), settings.delayMs(), 42L);
            for (Map.Entry<String, List<Level>> scenario : settings.scenarios().entrySet()) {
                String name = scenario.getKey();
                Workload first = scenarios.workload(name, "v" + index + "-pre");
                preload(server.baseUri(), scenarios.preload(first));
                if (!settings.warmup().isZero()) {
                    int users = Math.min(WARMUP_MAX_USERS, scenario.getValue().stream()
                            .mapToInt(l -> l.isOpen() ? WARMUP_MAX_USERS : l.concurrency()).max().orElse(WARMUP_MAX_USERS));
                    new NioHttpDriver(settings.timeout(), settings.maxConnections()).run(target,
                            scenarios.workload(name, "v" + index + "-warm-" + name), Level.closed(users),
                            settings.warmup(), settings.pinning().loadCpuCount());
                    progress.planned(settings.warmup());
                    planned += settings.warmup().toMillis();
                }
                for (Level level : scenario.getValue()) {
                    if (!server.isAlive()) {
                        throw new IOException(variant.name() + " exited during the run; see " + log);
                    }
                    Workload workload = scenarios.workload(name, "v" + index + "-" + name + "-" + level.slug());
                    try {
                        step(variant, server, jdk, workload, level, target, progress, resultsCsv, stepsCsv);
                        rows++;
                    } catch (IOException e) {
                        String problem = variant.name() + " " + name + " " + level.label() + ": " + e.getMessage();
                        problems.add(problem);
                        progress.info("!! " + problem);
                    }
                    progress.planned(settings.duration());
                    planned += settings.duration().toMillis();
                }
            }
        }
        return new int[] {rows, (int) Math.min(Integer.MAX_VALUE, planned)};
    }

    private void step(Variant variant, VariantProcess server, JdkInfo jdk, Workload workload, Level level,
                      Target target, Progress progress, Path resultsCsv, Path stepsCsv)
            throws IOException, InterruptedException {
        LoadDriver driver = driverFor(workload, level);
        long pid = server.pid();
        Path home = jdk.home().isEmpty() ? null : Path.of(jdk.home());
        String slug = workload.name() + "-" + level.slug();
        Path rawFile = settings.out().resolve("raw").resolve(variant.name()).resolve(slug + ".txt");
        Files.createDirectories(rawFile.getParent());
        Path flameFile = null;
        int loadCpus = settings.pinning().loadCpuCount();

        ProcStat cpu0 = ProcStat.read(pid);
        GcCounters gc0 = GcCounters.read(pid, home);
        CpuTimes machine0 = CpuTimes.read();
        ProcStat mc0 = memcachedPid > 0 ? ProcStat.read(memcachedPid) : null;
        String startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        if (flamegraphs != null) {
            flamegraphs.start(pid);
        }
        LoadResult result;
        try {
            result = driver.run(target, workload, level, settings.duration(), loadCpus);
        } finally {
            if (flamegraphs != null) {
                flameFile = settings.out().resolve("flame").resolve(variant.name()).resolve(slug + ".html");
                Files.createDirectories(flameFile.getParent());
                try {
                    flamegraphs.stop(pid, flameFile);
                } catch (IOException e) {
                    problems.add(variant.name() + " " + slug + " flame graph: " + e.getMessage());
                    flameFile = null;
                }
            }
        }
        CpuTimes machine1 = CpuTimes.read();
        ProcStat mc1 = mc0 != null ? ProcStat.read(memcachedPid) : null;
        ProcStat cpu1 = ProcStat.read(pid);
        GcCounters gc1 = GcCounters.read(pid, home);
        ProcStatus memory = ProcStatus.read(pid);

        ProcStat cpu = cpu1.minus(cpu0);
        GcCounters gc = gc1.minus(gc0);
        long requests = result.requests();
        double userMs = ClockTicks.toMillis(cpu.utime());
        double sysMs = ClockTicks.toMillis(cpu.stime());
        double userPerReq = requests > 0 ? userMs / requests : Double.NaN;
        double sysPerReq = requests > 0 ? sysMs / requests : Double.NaN;
        double driverPct = result.seconds() > 0 ? 100.0 * result.driverCpuMs() / (result.seconds() * 1000.0 * loadCpus) : 0;
        List<Integer> all = Pinning.allowedCpusAtStart();
        List<Integer> loadList = settings.pinning().loadCpus().isEmpty() ? all : Pinning.parse(settings.pinning().loadCpus());
        List<Integer> serverList = settings.pinning().serverCpus().isEmpty() ? all : Pinning.parse(settings.pinning().serverCpus());
        double loadBusy = machine1.busyPct(machine0, loadList);
        double serverBusy = machine1.busyPct(machine0, serverList);
        double steal = machine1.stealPct(machine0, all);
        // memcached counts on the load side only when it runs on the load CPUs (the default split).
        boolean memcachedOnLoad = mc0 != null && !settings.pinning().loadCpus().isEmpty()
                && settings.pinning().memcachedCpus().equals(settings.pinning().loadCpus());
        double memcachedPct = memcachedOnLoad && result.seconds() > 0
                ? 100.0 * ClockTicks.toMillis(mc1.minus(mc0).ticks()) / (result.seconds() * 1000.0 * loadCpus) : 0;
        // Interrupt and softirq time on the load CPUs is mostly the loopback traffic of the driver's
        // sockets (and memcached's): load-side work that no process's /proc/PID/stat shows.
        double loadIrq = settings.pinning().loadCpus().isEmpty() ? 0
                : Math.max(0, loadBusy - machine1.processBusyPct(machine0, loadList));
        double loadSide = driverPct + memcachedPct + loadIrq;
        boolean saturated = loadSide > settings.saturationPct();
        double otherLoad = 0;
        if (!settings.pinning().serverCpus().isEmpty() && result.seconds() > 0) {
            double serverOwn = 100.0 * (userMs + sysMs) / (result.seconds() * 1000.0 * serverList.size());
            double loadOwn = driverPct + memcachedPct; // process time only: compared with process busy time
            otherLoad = Math.max(0, Math.max(machine1.processBusyPct(machine0, serverList) - serverOwn,
                    machine1.processBusyPct(machine0, loadList) - loadOwn));
        }
        boolean noisy = otherLoad > NOISE_PCT;

        ResultRow row = new ResultRow(settings.runId(), startedAt, Environment.hostName(), Environment.arch(),
                Environment.cpuModel(), Environment.cpus(), jdk.label(), variant.name(),
                variant.mode(), workload.name(), result.driver(), level.isOpen() ? 0 : level.concurrency(),
                level.isOpen() ? level.rate() : 0, result.seconds(), requests, result.errors(), result.rps(),
                result.latency().p50(), result.latency().p90(), result.latency().p99(), result.latency().p999(),
                result.latency().max(), userPerReq, sysPerReq, memory.rssMb(), gc.count(), gc.millis());
        ResultsCsv.append(resultsCsv, row);
        Path relativeRaw = settings.out().relativize(rawFile);
        StepsCsv.append(stepsCsv, new StepRecord(variant.name(), workload.name(), row.concurrency(), row.targetRps(),
                result.driver(), result.driverCpuMs(), driverPct, memcachedPct, loadBusy, serverBusy, steal, otherLoad, loadSide, saturated,
                result.peakConnections(),
                settings.pinning().serverCpus(), settings.pinning().loadCpus(),
                workload.name().equals("delay") ? settings.delayMs() : 0, settings.threads(),
                relativeRaw.toString(), flameFile == null ? "" : settings.out().relativize(flameFile).toString(),
                1, Spread.single(row.rps()), Spread.single(row.latP99Ms()), Spread.single(row.cpuMsPerReq()),
                settings.warmup().toMillis() / 1000.0, 0, Double.NaN, Double.NaN));

        StringBuilder raw = new StringBuilder();
        raw.append(String.format(Locale.ROOT, "variant %s (%s), pid %d, JDK %s%nscenario %s, level %s, started %s%n",
                variant.name(), variant.mode(), pid, jdk.label(), workload.name(), level.label(), startedAt));
        raw.append(String.format(Locale.ROOT, "server /proc/%d/stat: utime %d -> %d, stime %d -> %d ticks (CLK_TCK %d):"
                        + " user %.0f ms, system %.0f ms%n", pid, cpu0.utime(), cpu1.utime(), cpu0.stime(), cpu1.stime(),
                ClockTicks.perSecond(), userMs, sysMs));
        raw.append(String.format(Locale.ROOT, "server GC (%s): %d -> %d collections, %.1f -> %.1f ms%n", gc1.source(),
                gc0.count(), gc1.count(), gc0.millis(), gc1.millis()));
        raw.append(String.format(Locale.ROOT, "server RSS %.1f MiB (peak %.1f MiB)%n", memory.rssMb(), memory.vmHwmKb() / 1024.0));
        raw.append(String.format(Locale.ROOT, "driver CPU %.0f ms = %.1f%% of %d CPU(s); memcached %.1f%% of them; irq+softirq"
                        + " %.1f%%: load side %.1f%%; load CPUs %s %.1f%% busy, server CPUs %s %.1f%% busy, steal %.1f%%"
                        + " (/proc/stat, anything running)%s%n%n",
                result.driverCpuMs(), driverPct, loadCpus, memcachedPct, loadIrq, loadSide, loadList, loadBusy, serverList,
                serverBusy, steal,
                saturated ? " — SATURATED: the load generator may have been the limit" : ""));
        if (noisy) {
            raw.append(String.format(Locale.ROOT, "NOT QUIET: %.0f%% of the server's or the load CPUs' time went to processes"
                    + " outside this run; its figures are noisy%n%n", otherLoad));
        }
        raw.append(result.raw());
        Files.writeString(rawFile, raw, StandardCharsets.UTF_8);

        progress.step(variant.name(), workload.name(), level.label(), result.rps(), result.latency().p99(),
                row.cpuMsPerReq(), loadSide, saturated, noisy ? otherLoad : 0, result.errors());
    }

    private LoadDriver driverFor(Workload workload, Level level) {
        NioHttpDriver nio = new NioHttpDriver(settings.timeout(), settings.maxConnections());
        String wanted = settings.driver();
        if (wanted.equals(WrkDriver.NAME)) {
            Path wrk = WrkDriver.find();
            if (wrk == null) {
                throw new IllegalStateException("--driver wrk: wrk is not installed (apt-get install wrk)");
            }
            WrkDriver driver = new WrkDriver(wrk, settings.out().resolve("wrk"), settings.timeout());
            if (driver.supports(workload, level)) {
                return driver;
            }
            // wrk has no open model and cannot keep the journey's order: those steps use testbed-nio.
        }
        return nio;
    }

    private void awaitHealthy(URI base) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + HEALTH_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(base.resolve("/testbed/health"))
                        .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                last = response.statusCode() + " " + response.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IOException("not healthy within " + HEALTH_TIMEOUT + " (GET /testbed/health: " + last + ")");
    }

    /** Sends the scenario's preload requests, 16 at a time; 201 and 409 (already there) are fine. */
    private static void preload(URI base, List<RequestSpec> specs) throws IOException, InterruptedException {
        if (specs.isEmpty()) {
            return;
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        Semaphore permits = new Semaphore(16);
        AtomicInteger failures = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        List<CompletableFuture<?>> futures = new ArrayList<>();
        for (RequestSpec spec : specs) {
            permits.acquire();
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(spec.path())).timeout(Duration.ofSeconds(10));
            request = spec.hasBody()
                    ? request.header("Content-Type", RequestSpec.JSON).method(spec.method().name(), HttpRequest.BodyPublishers.ofByteArray(spec.body()))
                    : request.method(spec.method().name(), HttpRequest.BodyPublishers.noBody());
            futures.add(client.sendAsync(request.build(), HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
                permits.release();
                if (error != null || (response.statusCode() != 201 && response.statusCode() != 409)) {
                    failures.incrementAndGet();
                    firstFailure.compareAndSet(null, spec.path() + ": " + (error != null ? error : "status " + response.statusCode()));
                }
            }));
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        if (failures.get() > 0) {
            throw new IOException("preload failed for " + failures.get() + " of " + specs.size() + " items, e.g. " + firstFailure.get());
        }
    }

    static String human(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
