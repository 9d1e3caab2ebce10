package org.testbed.runner.step;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.testbed.driver.Level;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.StoreLatency;
import org.testbed.runfolder.stats.PrecisionTarget;

/**
 * A named set of defaults for {@code ./testbed run}: which scenarios, at which levels, how long,
 * under which conditions, and for the capacity studies which SLA. Command-line options override any
 * of them.
 *
 * <ul>
 *   <li>{@code default}: every variant and both scenarios in about 2 minutes a variant on a 2-core machine,
 *       measured as JMH measures: 2 forks (fresh servers, the variant order rotated) × 3
 *       iterations of 3 s per step, each fork warmed up once per scenario until it is steady
 *       (throughput flat and the JIT's compiler threads idle, with the load CPUs open to them
 *       meanwhile; at most 60 s), then the read-heavy CRUD mix at 64 users, then 400 users on the
 *       150 ms delay endpoint (where the 200-thread sync variants meet Little's law at 1333 req/s
 *       while the others reach the client's own bound, 2667 req/s). Six samples a step, from two
 *       JVMs: enough for an interval that holds the spread between JVMs as well as within one
 *       ({@code ForkedSamples}). Fewer forks than the old three passes, and iterations instead,
 *       buy the warm-up time that Spring on one core needs.</li>
 *   <li>{@code seed}: the published studies, 3 passes: a warm-up until steady of at most 300 s,
 *       then a staircase of 50 → 1100 users in steps of 50, 60 s each, on the mix; then 5000 req/s
 *       offered for 60 s on a 150 ms delay (open model). Hours.</li>
 * </ul>
 *
 * <p>The other profiles each reproduce one study's conditions in one command (see the runner
 * README, "The studies as profiles"): {@code https}, {@code staircase}, {@code delay},
 * {@code gzip-sla}, {@code metrics-cost} and {@code store-latency}.
 */
public enum Profile {
    DEFAULT(Duration.ofSeconds(3), Duration.ofSeconds(60), 2, 3, scenarios(
            "mix", Levels.concurrency("64"),
            "delay", Levels.concurrency("400"))),
    SEED(Duration.ofSeconds(60), Duration.ofSeconds(300), 3, 1, scenarios(
            "mix", Levels.concurrency("50:1100:50"),
            "delay", Levels.rate("5000"))),
    /** The x86_64-vs-arm64 Tomcat study: maximum throughput with 96 connections (wrk -c96 -d30s), over HTTP and HTTPS. */
    HTTPS(Duration.ofSeconds(30), Duration.ofSeconds(120), 3, 1, scenarios("mix", Levels.concurrency("96")),
            List.of(Conditions.PLAIN, new Conditions(true, false, false)), null, 0),
    /** The Tomcat-vs-Netty study: closed-loop users 50 → 1100 in steps of 50, 60 s each, after a warm-up. */
    STAIRCASE(Duration.ofSeconds(60), Duration.ofSeconds(300), 3, 1, scenarios("mix", Levels.concurrency("50:1100:50"))),
    /** The sync-vs-async study: 5000 req/s offered for 60 s, every request waiting 150 ms. */
    DELAY(Duration.ofSeconds(60), Duration.ofSeconds(120), 3, 1, scenarios("delay", Levels.rate("5000"))),
    /** The cloud ARM studies: gzip over HTTPS, throughput under p99 <= 5 ms, with 10 KB payloads. */
    GZIP_SLA(Duration.ofSeconds(10), Duration.ofSeconds(120), 3, 1, scenarios("mix", Levels.concurrency("64")),
            List.of(new Conditions(true, true, false)), "p99<=5ms", 10_240),
    /** The API-gateway study: each case twice, plain and with metrics recorded and scraped, to price observability. */
    METRICS_COST(Duration.ofSeconds(10), Duration.ofSeconds(120), 3, 1, scenarios("mix", Levels.concurrency("64")),
            List.of(Conditions.PLAIN, new Conditions(false, false, true)), null, 0),
    /**
     * The sync-vs-async question asked of a real store: the mix at 400 users (twice the sync variants'
     * 200 threads, so that a thread held while the store answers shows) with memcached 0, 2, 10 and
     * 50 ms away, through Toxiproxy (0 ms: through it undelayed, so that only the latency changes).
     */
    STORE_LATENCY(Duration.ofSeconds(10), Duration.ofSeconds(120), 3, 1, scenarios("mix", Levels.concurrency("400")),
            Stream.of(0, 2, 10, 50).map(ms -> Conditions.PLAIN.withStoreLatency(StoreLatency.ofMillis(ms))).toList(), null, 0);

    private final Duration duration;
    private final Duration warmup;
    private final int repeat;
    private final int iterations;
    private final Map<String, List<Level>> scenarios;
    private final List<Conditions> conditions;
    private final String sla;
    private final int payloadSize;

    Profile(Duration duration, Duration warmup, int repeat, int iterations, Map<String, List<Level>> scenarios) {
        this(duration, warmup, repeat, iterations, scenarios, List.of(Conditions.PLAIN), null, 0);
    }

    Profile(Duration duration, Duration warmup, int repeat, int iterations, Map<String, List<Level>> scenarios,
            List<Conditions> conditions, String sla, int payloadSize) {
        this.duration = duration;
        this.warmup = warmup;
        this.repeat = repeat;
        this.iterations = iterations;
        this.scenarios = scenarios;
        this.conditions = conditions;
        this.sla = sla;
        this.payloadSize = payloadSize;
    }

    public static Profile of(String name) {
        try {
            return valueOf(name.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown profile '" + name + "'; one of " + names());
        }
    }

    /** The profiles' names as {@code --profile} takes them. */
    public static String names() {
        return Arrays.stream(values()).map(Profile::label).collect(Collectors.joining(", "));
    }

    /** {@code gzip-sla}: the name {@code --profile} takes. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public Duration duration() {
        return duration;
    }

    /** The longest warm-up: it ends earlier once throughput has stopped rising. */
    public Duration warmup() {
        return warmup;
    }

    /** How many fresh servers (forks) measure every step. */
    public int repeat() {
        return repeat;
    }

    /** How many samples each fork measures of every step, one after another. */
    public int iterations() {
        return iterations;
    }

    /** Scenario name to its levels, in run order. */
    public Map<String, List<Level>> scenarios() {
        return scenarios;
    }

    /** The conditions every variant runs under, each in turn. */
    public List<Conditions> conditions() {
        return conditions;
    }

    /** The SLA whose capacity the profile searches, or null for its levels. */
    public String sla() {
        return sla;
    }

    /**
     * The precision the profile's own plan promises, reached by forks added after the planned ones
     * (see the runner README, "Precision where the uncertainty is"): default holds the mix's
     * throughput and CPU per request to ±5 % and the delay scenario's throughput, CPU and p99 to
     * ±10 %; the other profiles promise none and measure their planned forks.
     */
    public PrecisionTarget precision() {
        return this == DEFAULT ? PrecisionTarget.parse(List.of("mix:5%", "delay:10%:rps,cpu,p99")) : PrecisionTarget.NONE;
    }

    /** The default profile's time per variant, planned and added forks together: 20 minutes for ten variants. */
    public static final Duration DEFAULT_BUDGET_PER_VARIANT = Duration.ofMinutes(2);

    /**
     * The longest the profile's whole run of {@code variants} variants may take with its added
     * forks: default's 2 minutes a variant on 2 cores. The planned forks take a variant about a
     * minute and three quarters, so a fixed budget would leave no room for added forks once the
     * variants outgrow it, and a run of two variants would wait for nothing.
     */
    public Optional<Duration> budget(int variants) {
        return this == DEFAULT ? Optional.of(DEFAULT_BUDGET_PER_VARIANT.multipliedBy(Math.max(1, variants)))
                : Optional.empty();
    }

    /** The payload of written items, or 0 for the command line's default. */
    public int payloadSize() {
        return payloadSize;
    }

    private static Map<String, List<Level>> scenarios(String a, List<Level> la) {
        Map<String, List<Level>> map = new LinkedHashMap<>();
        map.put(a, la);
        return map;
    }

    private static Map<String, List<Level>> scenarios(String a, List<Level> la, String b, List<Level> lb) {
        Map<String, List<Level>> map = scenarios(a, la);
        map.put(b, lb);
        return map;
    }
}
