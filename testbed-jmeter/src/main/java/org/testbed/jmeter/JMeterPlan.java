package org.testbed.jmeter;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testbed.driver.Target;
import org.testbed.scenario.Check;
import org.testbed.scenario.CrudJourney;
import org.testbed.scenario.LaneCycle;
import org.testbed.scenario.Operations;
import org.testbed.scenario.ReadHeavyMix;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.Workload;

/**
 * Writes a JMeter test plan for one step from the scenario library, never by hand: {@code plan.jmx}
 * and one data file per user, {@code lanes/lane-N.tsv}, holding that user's requests as the
 * testbed-nio driver's lane N-1 would send them (same seeds, keys, payloads, mix), computed ahead as
 * a {@link LaneCycle} the user replays for as long as the step lasts.
 *
 * <p>The plan: a thread group of {@code users} threads started at once, each looping until the
 * step's seconds are over, after its warm-up ({@link #WARMUP_SECONDS}, the closed model); each loop reads the next row of the thread's own file
 * (a CSV Data Set shared by the thread only, so lanes never mix) and a Switch Controller runs the
 * sampler named by the row's operation. There is one HTTP sampler per operation, named as
 * operations.csv names it (the mix's {@code GET}, {@code POST}, {@code PUT}, {@code DELETE}), on
 * JMeter's HttpClient4 implementation with keep-alive: each thread keeps one connection open, as a
 * testbed-nio user does. Under each sampler, the scenario library's checks as JMeter assertions: the
 * expected status (which decides alone whether the status is fine, so that an expected 404 passes),
 * headers, the exact item a write returns, JSON fields; and the ETag capture and {@code If-Match}
 * of the CRUD journey.
 *
 * <p>The open model ({@link Settings#open}): JMeter's {@code OpenModelThreadGroup} starts a new
 * thread at each arrival, evenly spaced at the step's rate (as testbed-nio's open model spaces its
 * arrivals), and each thread sends one request and ends. The arrivals take the rows of one sequence
 * in turn ({@code lanes/lane-1.tsv}, a CSV Data Set shared by all threads): lane 0's requests, with
 * a churn key's delete at least a second of arrivals after its create ({@link #openDeleteLag}), so
 * that concurrent arrivals never delete a key before it exists. In distributed mode each engine
 * reads its own sequence (lane {@code i-1} for engine {@code i}), so engines never share a key. A
 * thread of its own per arrival has a connection of its own: each request opens a new one.
 *
 * <p>A row is {@code operation TAB path TAB body TAB expected}, with {@code -} for a column the
 * operation does not use: every field is printable ASCII without a tab (the library's bodies are).
 */
public final class JMeterPlan {
    /** The JMeter the plan is written for (the version recorded in the .jmx). */
    public static final String JMETER_VERSION = "5.6.3";
    public static final String PLAN_FILE = "plan.jmx";
    public static final String LANES_DIR = "lanes";
    /** The variables a row sets, in column order. */
    static final List<String> COLUMNS = List.of("operation", "path", "body", "expected");
    private static final String UNUSED = "-";
    /** Most rows written for one step: bounds the files (about 100 B a row) at any number of users. */
    private static final int MAX_ROWS = 200_000;
    /** The least number of requests between a churn key's create and its delete in an open-model sequence. */
    static final int MIN_OPEN_DELETE_LAG = 2048;
    /**
     * Seconds of the step's own load each JMeter sends before its window, unmeasured: every step's
     * JMeter is a fresh JVM, which interprets and compiles its HTTP client, samplers and assertions
     * during its first seconds (on a busy 2-CPU machine, a cold JMeter at 50 req/s used 97 % of a CPU
     * and measured a p50 of 327 ms that was its own). The realistic users' ramp, when longer, is the
     * warm-up.
     */
    public static final long WARMUP_SECONDS = 2;
    /**
     * The open model: seconds without arrivals after the schedule's last one, before JMeter interrupts
     * the requests still in flight. The window ends where the schedule does (read off the last
     * arrival); without this pause JMeter cut the last arrivals at that very moment, some of them
     * just inside the window, and an interrupted sampler is a failed sample. With it, whatever is still in flight when the window
     * ends is counted as unfinished ({@link JtlWindow}).
     */
    public static final long OPEN_PAUSE_SECONDS = 1;

    private JMeterPlan() {
    }

    /**
     * What a plan is written for.
     *
     * @param target where the load goes
     * @param users threads of the closed model, one lane and one connection each
     * @param seconds how long the threads loop (JMeter's scheduler counts whole seconds)
     * @param requestTimeout connect and response timeout of every request
     * @param requestsPerLane rows of each lane's cycle before it repeats
     * @param pacing how the users arrive and pause: at once and back to back, or ramped up with think time
     * @param rate the open model: arrivals per second of this JMeter (of each engine, in distributed
     *     mode), each a new thread sending the next row of one sequence shared by all of them
     *     ({@code users} is then the number of such sequences, one per engine); 0 for the closed model
     */
    public record Settings(Target target, int users, long seconds, Duration requestTimeout, int requestsPerLane,
                           Pacing pacing, double rate) {
        /** Users started at once, back to back. */
        public Settings(Target target, int users, long seconds, Duration requestTimeout, int requestsPerLane) {
            this(target, users, seconds, requestTimeout, requestsPerLane, Pacing.NONE, 0);
        }

        public Settings {
            pacing = pacing == null ? Pacing.NONE : pacing;
            if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("an arrival rate is a positive number (0 for the closed model), not " + rate);
            }
            if (rate > 0 && !pacing.isNone()) {
                throw new IllegalArgumentException("a ramp-up and think time are the closed model's users; open arrivals have neither");
            }
            if (users < 1) {
                throw new IllegalArgumentException("a JMeter plan needs at least 1 user, not " + users);
            }
            if (seconds < 1) {
                throw new IllegalArgumentException("a JMeter plan runs at least 1 s, not " + seconds);
            }
            if (requestsPerLane < 1) {
                throw new IllegalArgumentException("a lane needs at least 1 request, not " + requestsPerLane);
            }
        }

        /** {@code users} users for {@code seconds}, each lane's cycle as long as the files' bound allows (200..2000 rows). */
        public static Settings closed(Target target, int users, long seconds, Duration requestTimeout) {
            return closed(target, users, seconds, requestTimeout, Pacing.NONE);
        }

        /** As {@link #closed(Target, int, long, Duration)}, the users arriving and pausing as {@code pacing} says. */
        public static Settings closed(Target target, int users, long seconds, Duration requestTimeout, Pacing pacing) {
            return new Settings(target, users, seconds, requestTimeout,
                    Math.max(200, Math.min(2000, MAX_ROWS / Math.max(1, users))), pacing, 0);
        }

        /**
         * The open model: {@code rate} arrivals per second of this JMeter for {@code seconds}, evenly
         * spaced, over {@code sequences} request sequences (one per engine that runs the plan). A
         * sequence is as long as the step sends (at least five delete lags, at most the files' bound),
         * after which it repeats.
         */
        public static Settings open(Target target, int sequences, double rate, long seconds, Duration requestTimeout) {
            long sent = (long) Math.ceil(rate * (WARMUP_SECONDS + seconds)) + 1;
            long rows = Math.min(MAX_ROWS / Math.max(1, sequences), Math.max(5L * openDeleteLag(rate), sent));
            return new Settings(target, sequences, seconds, requestTimeout, (int) rows, Pacing.NONE, rate);
        }

        public boolean isOpen() {
            return rate > 0;
        }

        /** The unmeasured seconds before the window ({@link JMeterPlan#leadSeconds}). */
        public long leadSeconds() {
            return JMeterPlan.leadSeconds(pacing);
        }
    }

    /**
     * The seconds of load before a step's window, unmeasured: the realistic users' ramp, and at least
     * the warm-up ({@link #WARMUP_SECONDS}).
     */
    public static long leadSeconds(Pacing pacing) {
        return Math.max(WARMUP_SECONDS, pacing.rampSeconds());
    }

    /**
     * In the open model, how many requests of a sequence a churn key lives before its delete: a
     * second of arrivals, and at least {@value #MIN_OPEN_DELETE_LAG}. Arrivals are threads of their
     * own that take the sequence's rows in turn: a create still in flight (a server pause) must not
     * be overtaken by the delete of its key on a later arrival.
     */
    static int openDeleteLag(double rate) {
        return (int) Math.max(MIN_OPEN_DELETE_LAG, Math.ceil(rate));
    }

    /**
     * The realistic users' pacing (the scenario library's {@link org.testbed.scenario.LoadShape.Realistic}):
     * the users start evenly over {@code ramp}, and each waits a think time drawn from {@code think}
     * before each request (JMeter's Uniform Random Timer); the step's seconds are the steady part
     * after the ramp. {@link #NONE}: all at once, back to back.
     */
    public record Pacing(Duration ramp, org.testbed.scenario.ThinkTime think) {
        public static final Pacing NONE = new Pacing(Duration.ZERO, org.testbed.scenario.ThinkTime.NONE);

        public Pacing {
            if (ramp.isNegative()) {
                throw new IllegalArgumentException("a ramp-up cannot be negative: " + ramp);
            }
        }

        /** The ramp in JMeter's whole seconds. */
        public long rampSeconds() {
            return (ramp.toMillis() + 999) / 1000;
        }

        public boolean isNone() {
            return ramp.isZero() && think.isNone();
        }
    }

    /** Writes {@code dir/plan.jmx} and {@code dir/lanes/} for {@code workload}; returns the plan. */
    public static Path write(Path dir, Workload workload, Settings settings) throws IOException {
        Operations operations = Operations.of(workload);
        Workload sent = workload;
        if (settings.isOpen()) {
            if (workload instanceof CrudJourney) {
                throw new IllegalArgumentException(OPEN_JOURNEY);
            }
            if (workload instanceof ReadHeavyMix mix) {
                sent = mix.withDeleteLag(openDeleteLag(settings.rate()));
            }
        }
        Path lanes = dir.resolve(LANES_DIR);
        Files.createDirectories(lanes);
        Map<String, OperationSampler> samplers = new LinkedHashMap<>();
        for (int lane = 0; lane < settings.users(); lane++) {
            List<RequestSpec> cycle = LaneCycle.of(sent, lane, settings.requestsPerLane());
            try (BufferedWriter out = Files.newBufferedWriter(lanes.resolve(laneFile(lane + 1)), StandardCharsets.US_ASCII)) {
                for (RequestSpec spec : cycle) {
                    String label = label(operations, spec);
                    OperationSampler sampler = OperationSampler.of(label, spec);
                    OperationSampler seen = samplers.putIfAbsent(label, sampler);
                    if (seen != null && !seen.equals(sampler)) {
                        throw new IllegalStateException("the requests of operation " + label + " differ in method, status or"
                                + " checks (" + seen + " and " + sampler + "): one JMeter sampler cannot send both");
                    }
                    out.write(row(label, spec, sampler));
                }
            }
        }
        // Samplers in the workload's order of operations, as operations.csv lists them.
        List<OperationSampler> ordered = operations.labels().stream().filter(samplers::containsKey).map(samplers::get).toList();
        Path plan = dir.resolve(PLAN_FILE);
        Files.writeString(plan, PlanXml.render(workload.name(), settings, lanes.toAbsolutePath(), ordered), StandardCharsets.UTF_8);
        return plan;
    }

    /** Why the CRUD journey has no open model on JMeter. */
    public static final String OPEN_JOURNEY = "the CRUD journey is an ordered sequence per user (create, read, update,"
            + " read, delete, read, the ETag carried along), which single-request arrivals on threads of their own cannot keep";

    /** The data file of JMeter thread {@code threadNum} (1-based, as {@code __threadNum} counts). */
    static String laneFile(int threadNum) {
        return "lane-" + threadNum + ".tsv";
    }

    private static String label(Operations operations, RequestSpec spec) {
        int index = operations.indexOf(spec);
        if (index < 0) {
            throw new IllegalStateException("no operation for the request " + spec);
        }
        return operations.labels().get(index);
    }

    private static String row(String label, RequestSpec spec, OperationSampler sampler) {
        String expected = UNUSED;
        if (sampler.checksRowItem()) {
            Check.ItemIs item = spec.checks().stream().filter(Check.ItemIs.class::isInstance).map(Check.ItemIs.class::cast)
                    .findFirst().orElseThrow();
            expected = new String(item.encoded(), StandardCharsets.UTF_8);
        }
        String body = spec.hasBody() ? spec.bodyText() : UNUSED;
        return field(label) + '\t' + field(spec.path()) + '\t' + field(body) + '\t' + field(expected) + '\n';
    }

    private static String field(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException("a lane file field must be printable ASCII without tabs: " + value);
            }
        }
        return value;
    }
}
