package org.testbed.gatling;

import static io.gatling.javaapi.core.CoreDsl.ByteArrayBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.doSwitch;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.onCase;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.stopLoadGeneratorIf;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.testbed.scenario.Check;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.LanePool;
import org.testbed.scenario.LoadShape;
import org.testbed.scenario.Mix;
import org.testbed.scenario.Operations;
import org.testbed.scenario.Payloads;
import org.testbed.scenario.Preloader;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.RequestStream;
import org.testbed.scenario.Seeds;
import org.testbed.scenario.ThinkTime;
import org.testbed.scenario.Workload;

/**
 * What every testbed simulation shares: the common knobs, the one Gatling request that executes any
 * {@link RequestSpec} of the scenario library, the per-run statistics, the assertions that make
 * {@code mvn gatling:test} fail on a bad run, and the run's results written after it.
 *
 * <p>A subclass picks a {@link LoadShape} and a {@link Workload} (both from the library), calls
 * {@link #start}, and injects {@link #loopingUsers} (each user keeps one lane, and one keep-alive
 * connection, until the shape's time is up) or {@link #oneShotUsers} (each arriving user borrows a
 * lane for one request; connections are shared).
 */
abstract class TestbedSimulation extends Simulation {
    /** Preload requests in flight at once, outside Gatling so that creating the items is not measured. */
    private static final int PRELOAD_IN_FLIGHT = 32;
    private static final String LANE = "testbedLane";
    private static final String SPEC = "testbedSpec";
    /** The request's operation: its index in {@link #operations}' labels (-1: of none). */
    private static final String OPERATION = "testbedOperation";
    private static final String T0 = "testbedT0";
    private static final String THINK = "testbedThink";
    private static final String ETAG = "testbedEtag";
    private static final String NO_BODY = "no-body";
    private static final String BODY = "body";
    private static final String BODY_IF_MATCH = "body-if-match";
    /** The scenario library's names for the workload's parameters, each with its knob. */
    static final String[] WORKLOAD_KNOBS = {"workload", "workload", "payloadSize", "payload",
        "preloadKeys", "keys", "delayMs", "delayMs", "runId", "runId", "injectorId", "injector", "mix", "mix"};

    /** Every knob is read through here; a bad value ends the run with one line saying what is allowed. */
    protected final Knobs knobs = Knobs.forSimulation(getClass().getSimpleName());
    protected final String target = knobs.url("target", "http://127.0.0.1:8080");
    protected final boolean smoke = knobs.bool("smoke", false);
    protected final double maxFailedPct = knobs.decimal("maxFailedPct", 0);
    protected final double p99Ms = knobs.decimal("p99Ms", Double.NaN);
    protected final String runId = knobs.string("runId", KeySpace.newRunId());
    protected final String injector = knobs.string("injector", "i0");
    protected final long seed = knobs.longValue("seed", 42);
    protected final int payloadSize = knobs.parse("payload", "100", Payloads::parseSize);
    protected final int preloadKeys = knobs.integer("keys", 1000);
    protected final Mix mix = knobs.parse("mix", "80:10:5:5", Mix::parse);
    protected final int delayMs = knobs.integer("delayMs", 150);
    private final String runDir = knobs.string("runDir", "");
    private final String startedAt = Instant.now().toString();

    protected LoadShape shape;
    protected Workload workload;
    protected RunStats stats;
    /** What the requests are named and their figures broken down by, as the runner's operations.csv does. */
    private Operations operations;
    private LanePool lanes;
    private String model;
    /** The target's variant, as its health check says before the load (empty if it does not). */
    private String variant = "";
    /** Set to stop injecting early (the SLA search stops after the first broken level). */
    protected volatile String stopReason;

    protected TestbedSimulation() {
        knobs.require("maxFailedPct", maxFailedPct >= 0 && maxFailedPct <= 100, "a percentage from 0 to 100");
        knobs.require("p99Ms", Double.isNaN(p99Ms) || p99Ms > 0, "a number of milliseconds above 0, or unset");
        // The workload's settings and the key space are the scenario library's to check, for every workload.
        knobs.build(() -> new Workload.Settings(new KeySpace(runId, injector), seed, payloadSize, preloadKeys, mix, delayMs),
                WORKLOAD_KNOBS);
    }

    /** The shape, shrunk to its smoke version with -Dsmoke=true. */
    protected <S extends LoadShape> S shape(S full) {
        @SuppressWarnings("unchecked")
        S chosen = smoke ? (S) full.smoke() : full;
        return chosen;
    }

    /** The workload named by -Dworkload (default {@code defaultName}). */
    protected Workload workload(String defaultName) {
        String name = knobs.string("workload", defaultName);
        int keys = smoke ? Math.min(preloadKeys, 200) : preloadKeys;
        return knobs.build(() -> Workload.of(name,
                new Workload.Settings(new KeySpace(runId, injector), seed, payloadSize, keys, mix, delayMs)), WORKLOAD_KNOBS);
    }

    protected void start(LoadShape shape, Workload workload, String model) {
        this.shape = shape;
        this.workload = workload;
        this.model = model;
        this.operations = Operations.of(workload);
        this.stats = new RunStats(shape, operations.labels());
        this.lanes = new LanePool(workload);
    }

    /**
     * The HTTP protocol: keep-alive (Gatling's default), no warm-up request (it would go to
     * gatling.io), no cache. {@code shareConnections}: one pool for all users instead of one per user;
     * needed when each user sends a single request, or every request would open (and for HTTPS
     * handshake) a fresh connection.
     */
    protected HttpProtocolBuilder protocol(boolean shareConnections) {
        HttpProtocolBuilder protocol = http.baseUrl(target)
                .disableWarmUp()
                .disableCaching()
                .disableAutoReferer()
                .acceptHeader("*/*")
                .userAgentHeader("testbed-gatling");
        return shareConnections ? protocol.shareConnections() : protocol;
    }

    /**
     * Sets up {@code population} against the target with the run's assertions: the last line of
     * every simulation's constructor ({@link #protocol} says what {@code shareConnections} is for).
     */
    protected void run(PopulationBuilder population, boolean shareConnections) {
        setUp(population).protocols(protocol(shareConnections)).assertions(assertions());
    }

    /** Failed requests within -DmaxFailedPct, optionally p99 within -Dp99Ms, and at least one request. */
    protected List<Assertion> assertions() {
        List<Assertion> assertions = new ArrayList<>();
        assertions.add(global().allRequests().count().gt(0L));
        assertions.add(global().failedRequests().percent().lte(maxFailedPct));
        if (!Double.isNaN(p99Ms)) {
            assertions.add(global().responseTime().percentile(99.0).lte((int) Math.floor(p99Ms)));
        }
        return assertions;
    }

    /** Users that each hold one lane and send its requests (with think time) until the shape's time is up. */
    protected ScenarioBuilder loopingUsers(String name, ThinkTime think) {
        ChainBuilder step = think.isNone() ? request()
                : request().exec(pause(s -> think.next(s.<SplittableRandom>get(THINK))));
        return scenario(name)
                .exec(s -> {
                    stats.userStarted();
                    return s.set(LANE, lanes.borrow()).set(THINK, Seeds.forLane(seed + 1, s.userId()));
                })
                .asLongAs(s -> stats.running()).on(step)
                .exec(s -> {
                    lanes.release(s.get(LANE));
                    return s;
                });
    }

    /** Users that arrive, borrow a lane, send one request and leave (open models). */
    protected ScenarioBuilder oneShotUsers(String name) {
        return scenario(name)
                .exec(stopLoadGeneratorIf(s -> stopReason, s -> stopReason != null))
                .exec(s -> {
                    stats.userStarted();
                    return s.set(LANE, lanes.borrow());
                })
                .exec(request())
                .exec(s -> {
                    lanes.release(s.get(LANE));
                    return s;
                });
    }

    /**
     * One request of the user's lane. The request is chosen, timed and recorded here: the time is
     * taken just before Gatling sends and just after its checks ran, and OK means Gatling did not
     * mark the session failed (a status or check failure, a timeout or a connection error). Its
     * Gatling request name is its operation ({@link Operations}: {@code GET} of the mix,
     * {@code create} of the journey), so that Gatling's report and ours break the run down alike.
     */
    private ChainBuilder request() {
        return exec(s -> {
                    RequestSpec spec = s.<RequestStream>get(LANE).next();
                    return s.markAsSucceeded().set(SPEC, spec).set(OPERATION, operations.indexOf(spec))
                            .set(T0, System.nanoTime());
                })
                .doSwitch(s -> variant(spec(s))).on(
                        onCase(NO_BODY).then(exec(checked(base()))),
                        onCase(BODY).then(exec(checked(withBody()))),
                        onCase(BODY_IF_MATCH).then(exec(checked(withBody().header("If-Match", s -> s.getString(ETAG))))))
                .exec(s -> {
                    long end = System.nanoTime();
                    boolean ok = !s.isFailed();
                    stats.record(s.getLong(T0), end, ok, s.getInt(OPERATION));
                    s.<RequestStream>get(LANE).completed(spec(s), ok);
                    return s.markAsSucceeded();
                });
    }

    private HttpRequestActionBuilder base() {
        return http(this::requestName).httpRequest(s -> spec(s).method().name(), s -> spec(s).path());
    }

    /** The request's operation label; a request of none keeps its own name. */
    private String requestName(Session s) {
        int operation = s.getInt(OPERATION);
        return operation >= 0 ? operations.labels().get(operation) : spec(s).name();
    }

    private HttpRequestActionBuilder withBody() {
        return base().body(ByteArrayBody(s -> spec(s).body())).header("Content-Type", RequestSpec.JSON);
    }

    /** The library's checks as Gatling checks: status, the header (saved when it is the ETag to send back), the body. */
    private static HttpRequestActionBuilder checked(HttpRequestActionBuilder request) {
        return request
                .check(status().is(s -> spec(s).expectedStatus()))
                .checkIf(s -> headerChecked(spec(s)) != null).then(header(s -> headerChecked(spec(s))).saveAs(ETAG))
                .checkIf(s -> hasBodyChecks(spec(s))).then(
                        bodyBytes().transformWithSession((body, s) -> bodyVerdict(spec(s), body)).is("ok"));
    }

    private static RequestSpec spec(Session session) {
        return session.get(SPEC);
    }

    private static String variant(RequestSpec spec) {
        return !spec.hasBody() ? NO_BODY : spec.sendIfMatch() ? BODY_IF_MATCH : BODY;
    }

    private static String headerChecked(RequestSpec spec) {
        for (Check check : spec.checks()) {
            if (check instanceof Check.HeaderPresent h) {
                return h.name();
            }
        }
        return null;
    }

    private static boolean hasBodyChecks(RequestSpec spec) {
        for (Check check : spec.checks()) {
            if (!(check instanceof Check.HeaderPresent)) {
                return true;
            }
        }
        return false;
    }

    /** "ok", or why the body is wrong (Gatling shows it in the report's errors). */
    private static String bodyVerdict(RequestSpec spec, byte[] body) {
        for (Check check : spec.checks()) {
            if (!(check instanceof Check.HeaderPresent)) {
                String failure = check.failure(name -> null, body == null ? new byte[0] : body);
                if (failure != null) {
                    return failure;
                }
            }
        }
        return "ok";
    }

    @Override
    public void before() {
        System.out.printf(Locale.ROOT, "testbed %s: %s%n  target %s, workload %s, run %s, injector %s%s%n  knobs %s%n",
                getClass().getSimpleName(), shape.describe(), target, workload.name(), runId, injector,
                smoke ? " (smoke)" : "", knobs.used());
        variant = TargetVariant.of(target);
        List<RequestSpec> preload = workload.preload();
        if (!preload.isEmpty()) {
            // Failures are reported, not thrown: the run goes on and its assertions judge the target.
            System.out.println("testbed preload: " + Preloader.run(URI.create(target), preload, PRELOAD_IN_FLIGHT).describe());
        }
    }

    @Override
    public void after() {
        RunStats.Row total = stats.total();
        boolean windowed = shape.windows().size() > 1 || !shape.windows().get(0).start().isZero();
        List<RunStats.Row> windows = windowed ? stats.windowRows() : List.of();
        List<RunStats.OperationRow> byOperation = new ArrayList<>(stats.operationRows());
        if (windowed) {
            byOperation.addAll(stats.windowOperationRows());
        }
        Summary summary = new Summary(getClass().getSimpleName(), runId, injector, target, variant, workload.name(),
                model, shape.describe(), loadUnit(), smoke, startedAt, stats.loadStartedAt(), lanes.lanes(),
                knobs.used(), total, windows, byOperation, windowed ? Double.NaN : shape.windows().get(0).load(),
                sla(windows));
        System.out.println(table(summary));
        List<Path> written = new ArrayList<>();
        Path runDirectory = gatlingRunDirectory();
        if (runDirectory != null) {
            written.addAll(summary.writeTo(runDirectory));
        }
        if (!runDir.isEmpty()) {
            written.addAll(summary.writeTo(Path.of(runDir)));
        }
        for (Path path : written) {
            System.out.println("testbed results: " + path.toAbsolutePath());
        }
    }

    /** Users for the looping simulations, arrivals per second for the one-shot ones (open models of single requests). */
    private Summary.LoadUnit loadUnit() {
        return shape instanceof LoadShape.ArrivalRate || shape instanceof LoadShape.SlaCapacity
                ? Summary.LoadUnit.ARRIVALS_PER_SECOND : Summary.LoadUnit.USERS;
    }

    /** The SLA verdicts; only the SLA search has them. */
    protected Summary.Sla sla(List<RunStats.Row> windows) {
        return null;
    }

    private static String table(Summary s) {
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "%n---- testbed summary: %s, %s ----%n", s.simulation(), s.shape()));
        t.append(String.format(Locale.ROOT, "%-10s %8s %10s %8s %10s %9s %9s %9s %9s %9s%n",
                "window", "load", "requests", "errors", "rps", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms"));
        List<RunStats.Row> rows = new ArrayList<>();
        rows.add(s.total());
        rows.addAll(s.windows());
        for (RunStats.Row r : rows) {
            t.append(String.format(Locale.ROOT, "%-10s %8s %10d %8d %10.1f %9.3f %9.3f %9.3f %9.3f %9.3f%n",
                    r.window(), Summary.num(r.load()), r.requests(), r.ko(), r.rps(),
                    r.p50(), r.p90(), r.p99(), r.p999(), r.max()));
        }
        List<RunStats.OperationRow> wholeRun = s.operations().stream()
                .filter(o -> o.figures().window().equals(RunStats.WHOLE_RUN)).toList();
        if (wholeRun.size() > 1) {
            t.append(String.format(Locale.ROOT, "per request name, whole run (%s):%n",
                    s.windows().isEmpty() ? "operations.csv has the same" : "operations.csv has each window's"));
            for (RunStats.OperationRow o : wholeRun) {
                RunStats.Row r = o.figures();
                t.append(String.format(Locale.ROOT, "%-12s %6s %10d %8d %10.1f %9.3f %9.3f %9.3f %9.3f %9.3f%n",
                        o.operation(), "", r.requests(), r.ko(), r.rps(), r.p50(), r.p90(), r.p99(), r.p999(), r.max()));
            }
        }
        if (s.sla() != null) {
            t.append(String.format(Locale.ROOT, "SLA p99 <= %s ms: capacity %s req/s%s%n", Summary.num(s.sla().p99BoundMs()),
                    Summary.num(s.sla().capacityRps()),
                    s.sla().firstBreach() == null ? " (never broken)" : ", first broken at " + s.sla().firstBreach()));
        }
        return t.toString();
    }

    /**
     * The folder Gatling writes this run's simulation.log and HTML report into: the newest
     * {@code <simulation id>-<timestamp>} folder under the results folder the pom passes as
     * {@code testbed.gatling.results} (null when run some other way).
     */
    private Path gatlingRunDirectory() {
        String results = System.getProperty("testbed.gatling.results");
        if (results == null) {
            return null;
        }
        String prefix = getClass().getSimpleName().toLowerCase(Locale.ROOT) + "-";
        File[] candidates = new File(results).listFiles(f -> f.isDirectory() && f.getName().startsWith(prefix));
        if (candidates == null || candidates.length == 0) {
            return null;
        }
        return java.util.Arrays.stream(candidates).max(Comparator.comparingLong(File::lastModified)).map(File::toPath).orElse(null);
    }
}
