package org.testbed.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.testbed.driver.Level;
import org.testbed.driver.NioHttpDriver;
import org.testbed.driver.Scenarios;
import org.testbed.driver.Target;
import org.testbed.driver.WrkDriver;
import org.testbed.jmeter.JMeterDriver;
import org.testbed.jmeter.JMeterHome;
import org.testbed.jmeter.JMeterPlan;
import org.testbed.jmeter.distributed.LoadHosts;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.FaultSpec;
import org.testbed.runfolder.capacity.Sla;
import org.testbed.runfolder.gate.Assertion;
import org.testbed.runfolder.gate.RunAssertions;
import org.testbed.runfolder.stats.PrecisionTarget;
import org.testbed.runner.build.ModuleJar;
import org.testbed.runner.build.SourceFingerprint;
import org.testbed.runner.build.StaleJars;
import org.testbed.runner.capacity.CapacityPlan;
import org.testbed.runner.env.Environment;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.host.RemoteHostSettings;
import org.testbed.runner.step.ConditionSets;
import org.testbed.runner.step.Levels;
import org.testbed.runner.step.Pinning;
import org.testbed.runner.step.Profile;
import org.testbed.runner.step.ResumePoint;
import org.testbed.runner.step.RunSettings;
import org.testbed.runner.step.Runner;
import org.testbed.runner.step.ServerPlace;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.ThinkTime;
import org.testbed.ssh.SshException;
import org.testbed.ssh.SshTarget;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Start memcached (unless MEMCACHED_SERVERS is set), then each variant from its jar: warm it up,"
                + " run every scenario step by step, measure client latency and server CPU per request, stop it.",
                "Writes results/<run-id>/: results.csv (docs/DESIGN.md's columns), steps.csv, environment.json, raw/,"
                        + " logs/ and report.html."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {Main.EXIT_0, Main.EXIT_1, Main.EXIT_2, Main.EXIT_3, Main.EXIT_4})
final class RunCommand implements Callable<Integer> {
    private static final int DEFAULT_PAYLOAD = 100;

    @Spec
    CommandSpec spec;

    @ParentCommand
    Main main;

    @Option(names = "--variants", split = ",", paramLabel = "NAME",
            description = "Variants to run (default: every variant of variants.conf a JDK here can run)")
    List<String> variants;

    @Option(names = "--scenarios", split = ",", paramLabel = "NAME",
            description = "Scenarios from the scenario library: journey, mix, plaintext, json, delay (default: the profile's)")
    List<String> scenarios;

    @Option(names = "--concurrency", paramLabel = "FROM:TO:STEP|N,N",
            description = "Closed-model levels (users), e.g. 50:1100:50 or 8,64,256; applies to every scenario")
    String concurrency;

    @Option(names = "--rate", paramLabel = "FROM:TO:STEP|N,N",
            description = "Open-model levels (arrivals per second), e.g. 1000:5000:1000; applies to every scenario")
    String rate;

    @Option(names = "--duration", paramLabel = "TIME", description = "Measured time per step, e.g. 10s (default: the profile's)")
    String duration;

    @Option(names = "--warmup", paramLabel = "TIME", description = "The longest warm-up: unmeasured load per scenario and fork before its"
                    + " first step, ended once throughput in 1-second windows has stopped rising and the JIT's compiler"
                    + " threads are idle (default: the profile's)")
    String warmup;

    @Option(names = "--warmup-at-least", paramLabel = "TIME",
            description = "Keep warming up at least this long even once steady (capped by --warmup): a reference"
                    + " to check that the steady rule stopped on the server's figure, not its JIT's (default: 0)")
    String warmupAtLeast;

    @Option(names = {"--forks", "--repeat"}, paramLabel = "N",
            description = "Measure every step in N freshly started servers (forks), the variant order rotated each pass;"
                    + " results.csv shows the medians, steps.csv their spread and the interval of each figure fork by"
                    + " fork, samples.csv every sample (default: the profile's)")
    Integer repeat;

    @Option(names = "--iterations", paramLabel = "N",
            description = "Measure every step N times in each fork, after its one warm-up: N rounds when the variants are"
                    + " interleaved, else N times in a row (default: the profile's)")
    Integer iterations;

    @Option(names = "--interleave", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Each pass starts and warms up one JVM of every variant (and conditions), keeps them all, frozen"
                    + " while another is measured, and measures them in rounds, every round in a new random order, so that"
                    + " a step's windows and its neighbours' are seconds apart and the ratios of a round's windows are"
                    + " paired in time; --no-interleave measures one variant after another (default: interleaved, where"
                    + " the servers run on this machine)")
    boolean interleave = true;

    @Option(names = "--settle", paramLabel = "TIME", defaultValue = "1s",
            description = "Unmeasured load on each window's own connections before it opens, neither its requests nor"
                    + " the server's CPU counted (the in-JVM driver; an open model has at least its 1 s lead-in);"
                    + " 0s opens the window as soon as its users are connected (default: ${DEFAULT-VALUE})")
    String settle = "1s";

    @Option(names = "--precision", paramLabel = "[SCENARIO:]PCT[:FIGURES]",
            description = "After the planned forks, add forks to the steps whose 95 %% interval is wider than +-PCT, the"
                    + " widest per second of cost first, within --budget: 5%% (throughput and CPU per request of every"
                    + " scenario), mix:5%%, delay:10%%:rps,cpu,p99; repeatable; none to add no fork (default: the"
                    + " profile's when the run keeps its plan: default holds mix to 5%% and delay to 10%% on rps, cpu and p99)")
    List<String> precision;

    @Option(names = "--budget", paramLabel = "TIME",
            description = "With --precision: the longest the whole run may take; a fork is added only while it fits"
                    + " (default: the profile's, 2m per variant for default; else 1.5 times what the planned forks took)")
    String budget;

    @Option(names = "--max-forks", paramLabel = "N",
            description = "With --precision: the most forks one step may get, planned ones included (default: "
                    + RunSettings.Precision.MAX_FORKS + ")")
    Integer maxForks;

    @Option(names = "--profile", paramLabel = "NAME", defaultValue = "default",
            description = "default (every variant, the mix at 64 users and the delay at 400, 2 forks x 3 iterations of"
                    + " 3 s, then forks added where an interval is wider than the target; at most 2 min a variant on 2 cores), seed (the studies' staircase and 5000 req/s delay; hours), or one study each:"
                    + " https (96 users, plain and TLS), staircase (50..1100 users), delay (5000 req/s on 150 ms),"
                    + " gzip-sla (gzip over HTTPS, capacity under p99<=5ms, 10 KB payloads), metrics-cost (metrics off"
                    + " and on), store-latency (the mix at 400 users with memcached 0, 2, 10 and 50 ms away); see the"
                    + " runner README")
    String profile;

    @Option(names = "--java", paramLabel = "PATH",
            description = "The java launcher for every variant (variants needing a newer JDK are skipped); default: one"
                    + " JDK 21+ for every variant (the running one if 21+, else JAVA21_HOME, else the newest in"
                    + " /usr/lib/jvm), so that variants differ only in their server model")
    Path java;

    @Option(names = "--mixed-jdks",
            description = "Run each variant on its oldest suitable JDK instead (17 for most, 21+ for virtual threads);"
                    + " the report flags the run as mixed")
    boolean mixedJdks;

    @Option(names = "--server-cpus", paramLabel = "LIST",
            description = "CPUs for the server (taskset list, '' = no pinning); default: the first half of the CPUs when there are 2+")
    String serverCpus;

    @Option(names = "--load-cpus", paramLabel = "LIST", description = "CPUs for the load driver; default: the other half")
    String loadCpus;

    @Option(names = "--memcached-cpus", paramLabel = "LIST", description = "CPUs for the runner's memcached (default: the load driver's)")
    String memcachedCpus;

    @Option(names = "--flamegraph", arity = "0..1", fallbackValue = "cpu", paramLabel = "cpu|wall",
            description = "A flame graph and a heat map per step (async-profiler's JFR, drawn by its converter), linked"
                    + " from the report: cpu (the default; on-CPU samples, plus a user-only and a kernel-only view) or wall"
                    + " (wall clock: where threads wait too)")
    String flamegraph;

    @Option(names = "--counters", description = "Count the server's events per request with perf stat during each step"
            + " (cycles, instructions, IPC, context switches, migrations, page faults, cache and branch misses) into"
            + " counters.csv; events this machine cannot count are n/a with the reason")
    boolean counters;

    @Option(names = "--jfr", description = "Record the server with JDK Flight Recorder over each step (jcmd JFR.start with the"
            + " JDK's default settings, every safepoint recorded), keep the recording as raw/<variant>/<step>.jfr and summarise"
            + " its window into jfr.csv: pinned virtual threads (JDK 21+), GC pauses, safepoints, allocation rate,"
            + " the most contended monitors")
    boolean jfr;

    @Option(names = "--slow-machine", paramLabel = "RATIO", defaultValue = "0.9",
            description = "A window in which the server's or the load CPUs ran under RATIO of their full speed (a 10 ms"
                    + " loop timed on each CPU of the run about every 2 s: samples.csv's server_speed and load_speed) is"
                    + " left out of its step's figure and measured again, at most twice a window and within --budget;"
                    + " counted in steps.csv (slow_machine_samples, slow_machine_retakes) and said on the console; 0 keeps"
                    + " every window (default: ${DEFAULT-VALUE})")
    double slowMachine;

    @Option(names = "--out", paramLabel = "DIR", description = "The run folder (default: results/<run-id>)")
    Path out;

    @Option(names = "--resume", paramLabel = "DIR", description = "Go on with the run stopped in DIR (Ctrl-C, SIGTERM,"
            + " kill -9, a crash): keeps the sessions it measured to their end, drops the windows of the one it cut, and"
            + " measures the rest with the run's own options, read from DIR/environment.json. Takes no other option;"
            + " refused when the sources were changed since (the build differs) or the run finished")
    Path resume;

    /** The folder a resumed run takes up again; null for a new run. */
    private ResumePoint resumed;

    @Option(names = "--driver", paramLabel = "NAME", defaultValue = "auto",
            description = "auto (= testbed-nio), testbed-nio, wrk (closed-model mix/plaintext/json/delay steps only) or"
                    + " jmeter (Apache JMeter non-GUI on a plan generated from the scenario library; closed-model steps, and"
                    + " open-model ones but the journey's: a thread and a connection per arrival, latency from the send);"
                    + " other steps fall back to testbed-nio, saying why")
    String driver;

    @Option(names = "--tls",
            description = "Start every variant with TLS on (TESTBED_TLS) and drive it over HTTPS: one TLS handshake per"
                    + " connection, kept alive; rows say tls in their conditions column")
    boolean tls;

    @Option(names = "--gzip",
            description = "Start every variant with gzip on (TESTBED_GZIP), ask for gzip and check the inflated bodies;"
                    + " rows say gzip in their conditions column")
    boolean gzip;

    @Option(names = "--metrics",
            description = "Start every variant with its metrics on (TESTBED_METRICS: a timer per route and status, JVM"
                    + " metrics) and scrape GET /testbed/metrics once a second during each step, as Prometheus would;"
                    + " rows say metrics in their conditions column. Compare with a run without it for the cost")
    boolean metrics;

    @Option(names = "--sla", paramLabel = "PCT<=BOUND",
            description = "Find each variant's capacity per scenario: the highest offered rate (open model) whose step"
                    + " meets this latency objective with no error, e.g. 'p99<=5ms' (p50, p90, p99, p99.9; <= or <;"
                    + " us, ms, s). Doubles the rate from the lowest of --sla-rates until a step misses, then bisects;"
                    + " each probe is a step of its own. Writes capacity.csv; the report leads with it")
    String sla;

    @Option(names = "--sla-rates", paramLabel = "LOW:HIGH", defaultValue = "100:100000",
            description = "The capacity search's first and highest offered rates, requests per second")
    String slaRates;

    @Option(names = "--sla-precision", paramLabel = "PCT", defaultValue = "5",
            description = "The capacity search stops when the rates met and missed are within this many percent")
    double slaPrecision;

    @Option(names = "--conditions", split = ",", paramLabel = "SET",
            description = "Run every variant under each of these conditions in turn, started afresh for each: plain, or"
                    + " tls, gzip, metrics and a planted work joined by + (e.g. plain,tls or tls+gzip); workNus (work20us)"
                    + " starts the variants with TESTBED_WORK_US=N, N us of CPU in every item request, a change of known"
                    + " size for compare to find; --tls, --gzip and --metrics are one set (default: the profile's, plain)")
    List<String> conditions;

    @Option(names = "--store-latency", split = ",", paramLabel = "LATENCY",
            description = "Put memcached this far away: the servers reach it through Toxiproxy, every reply delayed by"
                    + " LATENCY, 10ms, or 10ms+-2ms (also 10ms\u00b12ms) with jitter; several (0ms,10ms) run every variant"
                    + " at each in turn, under each set of conditions. 0ms goes through the proxy undelayed. Rows say"
                    + " store10ms in their conditions column (default: the profile's, else none: memcached directly)")
    List<String> storeLatency;

    @Option(names = "--fault", split = ",", paramLabel = "SPEC",
            description = "A fault of the store inside every measured window, repeated like any figure: stall:5s+2s"
                    + " (memcached hangs, SIGSTOP then SIGCONT, for 2 s from 5 s into the window) or restart:5s[+1s]"
                    + " (memcached killed and started again, empty, on the same port, at once or 1 s later) or reset:5s+2s"
                    + " (every connection to memcached reset for 2 s: the variants reach it through Toxiproxy). Needs the"
                    + " runner's own memcached and a window that holds it; rows say it in their conditions"
                    + " (stall5s+2s), with the recovery time and the errors by kind it cost (repeatable)")
    List<String> faults;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "200", description = "Worker threads of sync variants (TESTBED_THREADS)")
    int threads;

    @Option(names = "--delay-ms", paramLabel = "MS", defaultValue = "150", description = "Simulated I/O of the delay scenario")
    int delayMs;

    @Option(names = "--payload-size", paramLabel = "BYTES", description = "Payload of written items (default: the profile's, else 100)")
    Integer payloadSize;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "4096", description = "Open model: most connections the driver opens")
    int maxConnections;

    @Option(names = "--timeout", paramLabel = "TIME", defaultValue = "10s", description = "Per-request timeout of the driver")
    String timeout;

    @Option(names = "--saturation", paramLabel = "PCT", defaultValue = "90",
            description = "Flag a step when the driver used more than this share of its CPUs")
    double saturation;

    @Option(names = "--jvm-args", paramLabel = "ARGS", defaultValue = "-Xms1g -Xmx1g",
            description = "JVM options for every variant (one string)")
    String jvmArgs;

    @Option(names = "--server-host", paramLabel = "USER@HOST",
            description = "Run the variants on another machine: each is deployed there over ssh (as ./testbed deploy"
                    + " does: the jar copied once per sha256, started, health waited for), driven from this machine and"
                    + " stopped; its CPU, memory and GC are read there. Memcached runs there too, on its loopback, unless"
                    + " MEMCACHED_SERVERS is set; --counters, --flamegraph and --jfr record there too")
    String serverHost;

    @Mixin
    SshOptions ssh = new SshOptions();

    @Option(names = "--server-address", paramLabel = "ADDR",
            description = "Where the load goes with --server-host (default: its host part)")
    String serverAddress;

    @Option(names = "--app-port", paramLabel = "N", defaultValue = "8080",
            description = "The port the variants listen on with --server-host")
    int appPort;

    @Option(names = "--server-java", paramLabel = "PATH",
            description = "With --server-host: the java there (default: JAVA_HOME, PATH, then the newest suitable JDK in"
                    + " /usr/lib/jvm there)")
    String serverJava;

    @Option(names = "--server-dir", paramLabel = "DIR", defaultValue = "testbed",
            description = "With --server-host: where the variants go there, DIR/<variant> (relative to the login's home"
                    + " unless absolute)")
    String serverDir;

    @Option(names = "--ramp", paramLabel = "TIME",
            description = "With --driver jmeter: realistic users, started evenly over this time before each step's window"
                    + " (JMeter's ramp-up); the window is the --duration after it")
    String ramp;

    @Option(names = "--think", paramLabel = "MIN-MAX",
            description = "With --driver jmeter: realistic users' think time before each request, drawn evenly from"
                    + " MIN-MAX (e.g. 500ms-2s), as the scenario library's realistic users and Gatling's RealisticUsers")
    String think;

    @Option(names = "--load-hosts", split = ",", paramLabel = "USER@HOST",
            description = "With --driver jmeter: send the load from these machines with JMeter's distributed mode. JMeter"
                    + " (the home this build lays out) is copied to each over ssh, one jmeter-server started there per step"
                    + " with the step's users (or an open step's rate) divided over the machines (JMeter's thread count"
                    + " and schedule are per engine), the"
                    + " controller run here; everything there is stopped and removed at the end, however it ends."
                    + " --ssh-port, --identity and --ssh-option apply")
    List<String> loadHosts;

    @Option(names = "--local-address", paramLabel = "ADDR",
            description = "With --load-hosts: this machine's address as the load machines reach it (JMeter's controller"
                    + " takes their samples there; variants run here listen there instead of 127.0.0.1). Default: the"
                    + " source address of the route to the first load host")
    String localAddress;

    @Option(names = "--load-rmi-port", paramLabel = "N", defaultValue = "24000",
            description = "With --load-hosts: JMeter's fixed RMI ports: N (each engine's registry) and N+1 (its engine)"
                    + " there, N+2 (the controller's, for the samples) here")
    int loadRmiPort;

    @Option(names = "--load-dir", paramLabel = "DIR", defaultValue = "testbed-load",
            description = "With --load-hosts: where JMeter goes there, DIR/<run id>-<N> (relative to the login's home"
                    + " unless absolute); removed at the end")
    String loadDir;

    @Option(names = "--load-java", paramLabel = "PATH", defaultValue = "java",
            description = "With --load-hosts: the java there that runs JMeter (17 or newer)")
    String loadJava;

    @Mixin
    AssertOptions assertOptions = new AssertOptions();

    @Mixin
    PriceOptions price = new PriceOptions();

    @Option(names = "--run-id", paramLabel = "ID", description = "The run id (default: r<UTC time>-<random>)")
    String runId;

    @Option(names = "--root", paramLabel = "DIR", description = "The repository root (default: $TESTBED_ROOT or the current directory)")
    Path root;

    @Override
    public Integer call() throws Exception {
        if (resume != null) {
            return resumeRun();
        }
        Path repo = root();
        List<Variant> selected = selectedVariants(repo);
        Profile p = Profile.of(profile);
        CapacityPlan capacity = capacityPlan(sla != null ? sla : p.sla());
        List<FaultSpec> faultSpecs = faultSpecs();
        List<Conditions> conditionSets = ConditionSets.atStoreLatencies(conditionSets(p), storeLatency).stream()
                .map(c -> c.withFaults(faultSpecs)).toList();
        Map<String, List<Level>> plan = plan(p);
        List<Assertion> assertions = assertOptions.parse();
        RunAssertions.requireScenarios(assertions, plan.keySet());
        String d = driverName();
        if (java != null && !Files.isExecutable(java)) {
            throw new IllegalArgumentException("--java " + java + " is not an executable java launcher");
        }
        String id = runId != null ? runId : KeySpace.newRunId();
        Path folder = out != null ? out : repo.resolve("results").resolve(id);
        if (resumed == null && Files.isRegularFile(folder.resolve("results.csv"))) {
            throw new IllegalArgumentException(folder + " already holds a run; choose another --out");
        }
        if (flamegraph != null && !Flamegraphs.MODES.contains(flamegraph)) {
            throw new IllegalArgumentException("--flamegraph takes " + String.join(" or ", Flamegraphs.MODES) + ", not '" + flamegraph + "'");
        }
        Optional<RemoteHostSettings> remote = remoteHost();
        if (remote.isPresent() && conditionSets.stream().anyMatch(c -> c.storeLatency().isPresent())) {
            throw new IllegalArgumentException("a store latency (--store-latency, the store-latency profile) runs on this"
                    + " machine only, its proxy beside the runner's memcached; --server-host cannot be combined with it");
        }
        LoadHosts.Settings load = loadHosts(d);
        ServerPlace place = ServerPlace.of(remote);
        String build = fingerprint(repo, selected);
        if (resumed != null) {
            resumed.requireBuild(build);
        }
        List<String> commandLine = resumed != null ? resumed.plan().commandLine() : spec.commandLine().getParseResult().originalArgs();
        RunSettings settings = new RunSettings(
                new RunSettings.Output(repo, folder.toAbsolutePath(), id, p.label(), commandLine, build),
                load(p, plan, d), servers(selected, place.pinning(serverCpus, loadCpus, memcachedCpus)),
                new RunSettings.Observation(Optional.ofNullable(flamegraph), counters, jfr, slowMachine(slowMachine)),
                conditionSets, Optional.ofNullable(capacity), remote, price.list(), Optional.ofNullable(load),
                precision(p, selected.size()));
        checkLimits(settings);
        checkFaults(settings);
        if (resumed != null && settings.capacity().isPresent()) {
            throw new IllegalArgumentException("--resume " + resumed.folder() + ": a capacity search is not resumed (each probe"
                    + " follows the one before); measure it again in a new folder");
        }
        place.prepare(settings);
        buildJars(repo, selected, d);
        return runAndCheck(settings, assertions, Optional.ofNullable(resumed));
    }

    /**
     * {@code --resume DIR}: the run's own options parsed again, its folder and id kept, and the run
     * taken up where it stopped ({@link Runner}, {@link ResumePoint}).
     */
    private int resumeRun() throws Exception {
        List<String> others = spec.commandLine().getParseResult().matchedOptions().stream().map(o -> o.names()[0])
                .filter(name -> !name.equals("--resume") && !name.equals("--root")).toList();
        if (!others.isEmpty()) {
            throw new IllegalArgumentException("--resume takes the run's own options from " + resume + "/environment.json;"
                    + " drop " + String.join(", ", others));
        }
        ResumePoint point = ResumePoint.read(resume);
        RunCommand original = new RunCommand();
        try {
            new CommandLine(original).parseArgs(point.runArguments().toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException("--resume " + resume + ": the run's options no longer parse (" + e.getMessage()
                    + "): measure it again in a new folder");
        }
        original.root = root();
        original.out = point.folder();
        original.runId = point.plan().runId();
        original.resumed = point;
        return original.call();
    }

    /** The fingerprint of the sources of the runner and the selected variants; empty when they cannot be read. */
    private static String fingerprint(Path repo, List<Variant> selected) {
        List<String> modules = new ArrayList<>(List.of("testbed-runner"));
        selected.forEach(v -> modules.add(v.module()));
        try {
            return SourceFingerprint.of(repo, modules);
        } catch (RuntimeException e) {
            return ""; // a runner jar away from its sources: the run is not resumable, and says so when asked
        }
    }

    /** {@code --variants}, or every variant of variants.conf. */
    private List<Variant> selectedVariants(Path repo) throws IOException {
        VariantManifest manifest = VariantManifest.load(repo.resolve(VariantManifest.FILE_NAME));
        if (variants == null || variants.isEmpty()) {
            return new ArrayList<>(manifest.variants());
        }
        List<Variant> selected = new ArrayList<>();
        for (String name : variants) {
            if (!name.isBlank()) {
                selected.add(manifest.find(name.strip()));
            }
        }
        return selected;
    }

    /** Each scenario with its levels: {@code --concurrency} and {@code --rate}, else the profile's, else 8, 64 and 256 users. */
    private Map<String, List<Level>> plan(Profile p) {
        Map<String, List<Level>> plan = new LinkedHashMap<>();
        List<String> names = scenarios == null || scenarios.isEmpty() ? new ArrayList<>(p.scenarios().keySet()) : scenarios;
        for (String name : names) {
            String n = name.strip();
            Scenarios.validate(n);
            List<Level> levels = new ArrayList<>();
            if (concurrency != null) {
                levels.addAll(Levels.concurrency(concurrency));
            }
            if (rate != null) {
                levels.addAll(Levels.rate(rate));
            }
            if (levels.isEmpty()) {
                levels.addAll(p.scenarios().getOrDefault(n, Levels.concurrency("8,64,256")));
            }
            plan.put(n, levels);
        }
        return plan;
    }

    /** {@code --driver}, checked. */
    private String driverName() {
        String d = driver.strip();
        if (!d.equals("auto") && !d.equals(NioHttpDriver.NAME) && !d.equals(WrkDriver.NAME) && !d.equals(JMeterDriver.NAME)) {
            throw new IllegalArgumentException("--driver must be auto, " + NioHttpDriver.NAME + ", " + WrkDriver.NAME + " or "
                    + JMeterDriver.NAME);
        }
        return d;
    }

    /** The load every step applies: the options given, else the profile's. */
    private RunSettings.Load load(Profile p, Map<String, List<Level>> plan, String driverName) {
        return new RunSettings.Load(plan,
                duration != null ? Levels.duration(duration) : p.duration(),
                warmup != null ? Levels.duration(warmup) : p.warmup(),
                warmupAtLeast != null ? Levels.duration(warmupAtLeast) : Duration.ZERO,
                repeat != null ? repeat : p.repeat(), iterations != null ? iterations : p.iterations(), driverName, delayMs,
                payloadSize != null ? payloadSize : p.payloadSize() > 0 ? p.payloadSize() : DEFAULT_PAYLOAD,
                maxConnections, Levels.duration(timeout), saturation, pacing(driverName, plan), interleave,
                Levels.duration(settle));
    }

    /** How the variants are started, with MEMCACHED_SERVERS when it is set. */
    private RunSettings.Servers servers(List<Variant> selected, Pinning pinning) {
        String servers = System.getenv("MEMCACHED_SERVERS");
        return new RunSettings.Servers(selected, Optional.ofNullable(java).map(Path::toAbsolutePath), mixedJdks,
                jvmArgs.isBlank() ? List.of() : Arrays.asList(jvmArgs.strip().split("\\s+")), threads,
                Optional.ofNullable(servers).map(String::strip).filter(s -> !s.isEmpty()), pinning);
    }

    /** The limits of the options whose values only the settings know (a profile's default among them). */
    private void checkLimits(RunSettings settings) {
        if (settings.load().warmupAtLeast().compareTo(settings.load().warmup()) > 0) {
            throw new IllegalArgumentException("--warmup-at-least " + warmupAtLeast + " is longer than the warm-up's limit"
                    + " (--warmup " + settings.load().warmup().toSeconds() + "s)");
        }
        if (settings.load().duration().compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("--duration must be at least 1s");
        }
        if (settings.load().repeat() < 1 || settings.load().repeat() > 100) {
            throw new IllegalArgumentException("--forks must be between 1 and 100, not " + settings.load().repeat());
        }
        if (settings.load().settle().isNegative() || settings.load().settle().compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("--settle must be from 0s to 1m, not " + settle);
        }
        if (settings.load().iterations() < 1 || settings.load().iterations() > 100) {
            throw new IllegalArgumentException("--iterations must be between 1 and 100, not " + settings.load().iterations());
        }
        if (java != null && mixedJdks) {
            throw new IllegalArgumentException("--java and --mixed-jdks exclude each other: --java runs every variant on one JDK");
        }
    }

    /** The run measures the jars as they are on disk: builds the missing or stale ones, in one Maven call. */
    private static void buildJars(Path repo, List<Variant> selected, String driverName) throws IOException {
        List<ModuleJar> jars = new ArrayList<>(selected.stream().map(v -> new ModuleJar(v.module(), v.jar())).toList());
        boolean builtJMeter = JMeterHome.find(repo).dir().equals(repo.resolve(JMeterHome.BUILT).toAbsolutePath().normalize());
        if (driverName.equals(JMeterDriver.NAME) && builtJMeter) {
            jars.add(new ModuleJar("testbed-jmeter", JMeterHome.MODULE_JAR)); // built together with the JMeter home
        }
        StaleJars.in(repo).buildStale(jars);
        if (driverName.equals(JMeterDriver.NAME)) {
            JMeterHome.find(repo).require(); // before any server starts: a clear error when JMeter cannot start
        }
    }

    /** Runs, then checks the gates: the exit status of a run that measured, stopped or failed its gates. */
    private static int runAndCheck(RunSettings settings, List<Assertion> assertions, Optional<ResumePoint> resumed)
            throws IOException, InterruptedException {
        Runner runner = new Runner(settings, System.out, resumed);
        int rows;
        try {
            rows = runner.run();
        } catch (SshException e) {
            System.err.println("testbed: run: " + e.getMessage());
            return Main.EXIT_FAILED;
        }
        int status = rows > 0 ? (runner.problems().isEmpty() ? 0 : Main.EXIT_INCOMPLETE) : Main.EXIT_FAILED;
        // The run folder is complete and its report written: the gates read it as report --assert would.
        if (rows > 0 && !assertions.isEmpty() && AssertOptions.check(settings.output().out(), assertions, System.out)) {
            return Main.EXIT_GATE_FAILED;
        }
        return status;
    }

    /**
     * The run's precision: {@code --precision} when given ({@code none}: the planned forks only), else
     * the profile's when the run keeps the profile's plan; a run that changes its scenarios, levels,
     * window, forks or iterations, or searches a capacity, states its own target.
     */
    private RunSettings.Precision precision(Profile p, int variants) {
        boolean ownPlan = scenarios == null && concurrency == null && rate == null && duration == null && repeat == null
                && iterations == null && sla == null;
        PrecisionTarget target;
        if (precision != null && !precision.isEmpty()) {
            target = precision.size() == 1 && precision.get(0).strip().equalsIgnoreCase("none")
                    ? PrecisionTarget.NONE : PrecisionTarget.parse(precision);
        } else {
            target = ownPlan ? p.precision() : PrecisionTarget.NONE;
        }
        Optional<Duration> limit = budget != null ? Optional.of(Levels.duration(budget)) : p.budget(variants);
        if (budget != null && !target.isPresent()) {
            throw new IllegalArgumentException("--budget limits the forks --precision adds: give --precision too"
                    + (ownPlan ? "" : " (a run that changes the profile's plan states its own target)"));
        }
        if (target.isPresent() && (sla != null || p.sla() != null)) {
            throw new IllegalArgumentException("--precision adds forks to measured steps; a capacity search (--sla) repeats"
                    + " its searches with --forks instead");
        }
        if (maxForks != null && (maxForks < 1 || maxForks > 100)) {
            throw new IllegalArgumentException("--max-forks must be between 1 and 100, not " + maxForks);
        }
        if (maxForks != null && !target.isPresent()) {
            throw new IllegalArgumentException("--max-forks limits the forks --precision adds: give --precision too");
        }
        return target.isPresent() ? new RunSettings.Precision(target, limit, maxForks != null ? maxForks
                : RunSettings.Precision.MAX_FORKS) : RunSettings.Precision.NONE;
    }

    /** The realistic users of {@code --ramp} and {@code --think}: JMeter's closed-model steps only. */
    private JMeterPlan.Pacing pacing(String driverName, Map<String, List<Level>> plan) {
        if (ramp == null && think == null) {
            return JMeterPlan.Pacing.NONE;
        }
        if (!driverName.equals(JMeterDriver.NAME) || gzip || plan.values().stream().flatMap(List::stream).anyMatch(Level::isOpen)) {
            throw new IllegalArgumentException("--ramp and --think pace JMeter's users: they need --driver jmeter, closed-model"
                    + " levels (--concurrency) only and no --gzip (other steps would run on testbed-nio without them)");
        }
        ThinkTime pause = ThinkTime.NONE;
        if (think != null) {
            String[] bounds = think.strip().split("-");
            if (bounds.length != 2) {
                throw new IllegalArgumentException("--think takes MIN-MAX, e.g. 500ms-2s, not '" + think + "'");
            }
            pause = new ThinkTime(Levels.duration(bounds[0]), Levels.duration(bounds[1]));
        }
        return new JMeterPlan.Pacing(ramp == null ? Duration.ZERO : Levels.duration(ramp), pause);
    }

    /** The load machines of {@code --load-hosts}, checked; null without it. */
    private LoadHosts.Settings loadHosts(String driverName) {
        if (loadHosts == null || loadHosts.isEmpty()) {
            if (localAddress != null) {
                throw new IllegalArgumentException("--local-address goes with --load-hosts");
            }
            return null;
        }
        if (!driverName.equals(JMeterDriver.NAME)) {
            throw new IllegalArgumentException("--load-hosts runs JMeter's distributed mode: add --driver jmeter");
        }
        if (loadRmiPort < 1 || loadRmiPort > 65533) {
            throw new IllegalArgumentException("--load-rmi-port must leave two ports above it, 1-65533, not " + loadRmiPort);
        }
        List<String> destinations = new ArrayList<>();
        for (String host : loadHosts) {
            if (!host.isBlank()) {
                destinations.add(ssh.target(host.strip()).destination());
            }
        }
        String first = ssh.target(destinations.get(0)).host();
        String local = localAddress != null && !localAddress.isBlank() ? localAddress.strip()
                : sourceAddressTowards(LoadHosts.address(first));
        // The variants here listen at this address for the load machines; the warm-up goes there too.
        Target.allowNamedServer(local);
        return new LoadHosts.Settings(destinations, ssh.port, ssh.identity, ssh.options, loadDir.strip(), local, loadRmiPort,
                loadJava.strip());
    }

    /** The source address of this machine's route to {@code address} ({@code ip route get}). */
    private static String sourceAddressTowards(String address) {
        String[] words = Environment.command("ip", "route", "get", address).strip().split("\\s+");
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals("src")) {
                return words[i + 1];
            }
        }
        throw new IllegalArgumentException("no route from here to load host " + address + " names this machine's address:"
                + " give it with --local-address");
    }

    /** The server's machine of {@code --server-host}, checked; empty without it. */
    private Optional<RemoteHostSettings> remoteHost() {
        if (serverHost == null) {
            return Optional.empty();
        }
        List<String> local = new ArrayList<>();
        if (serverCpus != null || memcachedCpus != null) {
            local.add("--server-cpus/--memcached-cpus (the server's machine is not pinned from here)");
        }
        if (java != null || mixedJdks) {
            local.add("--java/--mixed-jdks (the server's machine chooses the JDK: TESTBED_JAVA there)");
        }
        if (!local.isEmpty()) {
            throw new IllegalArgumentException("--server-host cannot be combined with " + String.join(", ", local)
                    + "; run without it on the server's machine for those");
        }
        SshTarget target = ssh.target(serverHost.strip());
        if (appPort < 1 || appPort > 65535) {
            throw new IllegalArgumentException("--app-port must be a port, 1-65535, not " + appPort);
        }
        String address = serverAddress == null || serverAddress.isBlank() ? target.host() : serverAddress.strip();
        Target.allowNamedServer(address);
        return Optional.of(new RemoteHostSettings(target.destination(), ssh.port, ssh.identity, ssh.options, serverDir.strip(),
                address, appPort, serverJava == null || serverJava.isBlank() ? null : serverJava.strip()));
    }

    /**
     * The conditions every variant runs under: {@code --conditions}, or the one set of {@code --tls},
     * {@code --gzip} and {@code --metrics}, or the profile's.
     */
    private List<Conditions> conditionSets(Profile p) {
        boolean flags = tls || gzip || metrics;
        if (conditions != null && !conditions.isEmpty()) {
            if (flags) {
                throw new IllegalArgumentException("--conditions and --tls/--gzip/--metrics exclude each other: name the"
                        + " sets in --conditions (e.g. plain,tls+gzip)");
            }
            List<Conditions> sets = new ArrayList<>();
            for (String c : conditions) {
                Conditions set = Conditions.parse(c);
                if (sets.contains(set)) {
                    throw new IllegalArgumentException("--conditions names " + set.label() + " twice");
                }
                sets.add(set);
            }
            return sets;
        }
        return flags ? List.of(new Conditions(tls, gzip, metrics)) : p.conditions();
    }

    /** {@code --fault}'s faults, each read and checked on its own; none without it. */
    private List<FaultSpec> faultSpecs() {
        List<FaultSpec> specs = new ArrayList<>();
        for (String f : faults == null ? List.<String>of() : faults) {
            if (!f.isBlank()) {
                specs.add(FaultSpec.parse(f));
            }
        }
        return specs;
    }

    /**
     * Every fault fits in the window, with a whole second before it to measure its cost against, and
     * hits the runner's own memcached.
     */
    private static void checkFaults(RunSettings settings) {
        Duration window = settings.load().duration();
        for (Conditions set : settings.conditionSets()) {
            for (FaultSpec f : set.faults()) {
                if (f.at().compareTo(Duration.ofSeconds(1)) < 0) {
                    throw new IllegalArgumentException("--fault " + f.spec() + " starts before the window's first whole"
                            + " second is over: its cost is measured against the seconds before it; start it at 1s or later");
                }
                if (f.end().compareTo(window) >= 0) {
                    throw new IllegalArgumentException("--fault " + f.spec() + " does not fit in the window (--duration "
                            + window.toMillis() / 1000.0 + "s): it must end before the window does, with time left to"
                            + " see it recover");
                }
                if (settings.servers().memcachedServers().isPresent() || settings.serverHost().isPresent()) {
                    throw new IllegalArgumentException("--fault " + f.spec() + " cannot run here: " + FaultSpec.NOT_OWN_STORE);
                }
            }
        }
    }

    /** {@code --sla} (or the profile's) with its range and precision, or null without one. */
    private CapacityPlan capacityPlan(String sla) {
        if (sla == null) {
            return null;
        }
        Sla objective = Sla.parse(sla);
        if (concurrency != null || rate != null) {
            throw new IllegalArgumentException("--sla searches the offered rate itself: drop --concurrency and --rate"
                    + " (--sla-rates LOW:HIGH bounds the search)");
        }
        String[] range = slaRates.strip().split(":");
        double low;
        double high;
        try {
            if (range.length != 2) {
                throw new NumberFormatException();
            }
            low = Double.parseDouble(range[0]);
            high = Double.parseDouble(range[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--sla-rates takes LOW:HIGH in requests per second, e.g. 100:100000, not '"
                    + slaRates + "'");
        }
        if (!(low > 0) || !(high >= low)) {
            throw new IllegalArgumentException("--sla-rates needs 0 < LOW <= HIGH, not '" + slaRates + "'");
        }
        if (!(slaPrecision >= 0.1) || slaPrecision >= 100) {
            throw new IllegalArgumentException("--sla-precision takes a percentage between 0.1 and 100, not " + slaPrecision);
        }
        return new CapacityPlan(objective, low, high, slaPrecision / 100);
    }

    private Path root() {
        return RepositoryRoot.resolve(root != null || main == null ? root : main.root);
    }

    /** {@code --slow-machine}: a share of full speed, 0 (off) to 1. */
    static double slowMachine(double ratio) {
        if (!(ratio >= 0 && ratio <= 1)) {
            throw new IllegalArgumentException("--slow-machine takes a share of full speed from 0 (off) to 1, not " + ratio);
        }
        return ratio;
    }
}
