package org.testbed.runner.step;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runner.load.Level;

/**
 * A named set of defaults for {@code ./testbed run}: which scenarios, at which levels, how long.
 * Command-line options override any of them.
 *
 * <ul>
 *   <li>{@code default}: every variant in about 20 minutes on a 2-core machine, every step
 *       measured 3 times (3 passes over the variants, each started afresh): a warm-up until steady
 *       (throughput no longer rising, JIT quiet) of at most 20 s, then the read-heavy CRUD mix at
 *       64 users, then 400 users on the 150 ms delay endpoint (where the 200-thread sync variants
 *       meet Little's law at 1333 req/s while the others reach the client's own bound, 2667 req/s),
 *       5 s per step. 20 s is too short for Spring on one core, whose JIT needs over a minute
 *       there: its steps say so ({@code warmup_unsettled_samples}). Three samples are the fewest
 *       that have a median and a range; the levels of the old single-shot profile (8, 64, 256
 *       users) made room for them.</li>
 *   <li>{@code seed}: the published studies, 3 passes: a warm-up until steady of at most 300 s,
 *       then a staircase of 50 → 1100 users in steps of 50, 60 s each, on the mix; then 5000 req/s
 *       offered for 60 s on a 150 ms delay (open model). Hours.</li>
 * </ul>
 */
public enum Profile {
    DEFAULT(Duration.ofSeconds(5), Duration.ofSeconds(20), 3, scenarios(
            "mix", Levels.concurrency("64"),
            "delay", Levels.concurrency("400"))),
    SEED(Duration.ofSeconds(60), Duration.ofSeconds(300), 3, scenarios(
            "mix", Levels.concurrency("50:1100:50"),
            "delay", Levels.rate("5000")));

    private final Duration duration;
    private final Duration warmup;
    private final int repeat;
    private final Map<String, List<Level>> scenarios;

    Profile(Duration duration, Duration warmup, int repeat, Map<String, List<Level>> scenarios) {
        this.duration = duration;
        this.warmup = warmup;
        this.repeat = repeat;
        this.scenarios = scenarios;
    }

    public static Profile of(String name) {
        try {
            return valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown profile '" + name + "'; one of default, seed");
        }
    }

    public Duration duration() {
        return duration;
    }

    /** The longest warm-up: it ends earlier once throughput has stopped rising. */
    public Duration warmup() {
        return warmup;
    }

    /** How many times every step is measured. */
    public int repeat() {
        return repeat;
    }

    /** Scenario name to its levels, in run order. */
    public Map<String, List<Level>> scenarios() {
        return scenarios;
    }

    private static Map<String, List<Level>> scenarios(String a, List<Level> la, String b, List<Level> lb) {
        Map<String, List<Level>> map = new LinkedHashMap<>();
        map.put(a, la);
        map.put(b, lb);
        return map;
    }
}
