package org.testbed.scenario;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How load is applied over time, as data a driver (Gatling, the runner, wrk) turns into its own
 * injection profile. Each shape knows its total length, the windows that are measured separately
 * (a staircase's levels, the SLA search's rate steps), and its {@link #smoke()} version: at most
 * 10 s, at most 20 users, low rates, for CI.
 *
 * <p>Every shape checks its parameters when made, and refuses one outside what it can run with an
 * {@link InvalidParameterException} naming the parameter (its record component), the value and
 * what is allowed, so a driver can report it under its own name for the parameter.
 */
public sealed interface LoadShape {
    /** Smoke runs: at most this long, this many users, this rate. */
    Duration SMOKE_MAX_TIME = Duration.ofSeconds(10);
    int SMOKE_MAX_USERS = 20;
    double SMOKE_MAX_RATE = 40;
    /** The label of a warm-up window: reported, never judged. */
    String WARMUP = "warmup";
    /** Most levels a stepped shape may have (a staircase's, the SLA search's). */
    int MAX_LEVELS = 10_000;

    /** How long the load lasts, ramps included (not counting the last requests' response time). */
    Duration total();

    /** The windows reported one by one; offsets are from the start of the load. */
    List<Window> windows();

    /** The CI version of this shape. */
    LoadShape smoke();

    /** One line for logs and summaries. */
    String describe();

    /**
     * A measured window.
     *
     * @param label e.g. {@code steady}, {@code level-03}
     * @param start offset from the start of the load
     * @param length how long the window lasts
     * @param load the users (closed models) or arrivals per second (open models) it applies
     */
    record Window(String label, Duration start, Duration length, double load) {
        public boolean contains(Duration offset) {
            return offset.compareTo(start) >= 0 && offset.compareTo(start.plus(length)) < 0;
        }
    }

    /**
     * Open model, the JMeter way: {@code users} arrive evenly over {@code ramp}, then each loops its
     * journey with {@code think} after every request until {@code hold} has passed after the ramp.
     */
    record Realistic(int users, Duration ramp, Duration hold, ThinkTime think) implements LoadShape {
        public Realistic {
            requireAtLeastOne("users", users);
            requireNotNegative("ramp", ramp);
            requirePositive("hold", hold);
        }

        @Override
        public Duration total() {
            return ramp.plus(hold);
        }

        @Override
        public List<Window> windows() {
            return List.of(new Window("steady", ramp, hold, users));
        }

        @Override
        public Realistic smoke() {
            return new Realistic(Math.min(users, SMOKE_MAX_USERS), min(ramp, Duration.ofSeconds(2)),
                    min(hold, Duration.ofSeconds(6)),
                    new ThinkTime(min(think.min(), Duration.ofMillis(100)), min(think.max(), Duration.ofMillis(500))));
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "realistic: %d users ramped over %ds, then %ds, think %d-%d ms",
                    users, ramp.toSeconds(), hold.toSeconds(), think.min().toMillis(), think.max().toMillis());
        }
    }

    /** A shape that applies one load for its whole {@code duration}, measured as one window. */
    sealed interface Steady extends LoadShape permits Throughput, ArrivalRate {
        Duration duration();

        /** The users or arrivals per second it applies. */
        double load();

        @Override
        default Duration total() {
            return duration();
        }

        @Override
        default List<Window> windows() {
            return List.of(new Window("steady", Duration.ZERO, duration(), load()));
        }
    }

    /** Closed model: {@code concurrency} users back to back, no think time, for {@code duration} (wrk -c). */
    record Throughput(int concurrency, Duration duration) implements Steady {
        public Throughput {
            requireAtLeastOne("concurrency", concurrency);
            requirePositive("duration", duration);
        }

        @Override
        public double load() {
            return concurrency;
        }

        @Override
        public Throughput smoke() {
            return new Throughput(Math.min(concurrency, SMOKE_MAX_USERS), min(duration, Duration.ofSeconds(5)));
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "throughput: %d concurrent users for %ds", concurrency, duration.toSeconds());
        }
    }

    /**
     * Closed model in steps: after {@code warmup} at {@code from} users (not measured as a level),
     * {@code from}, {@code from+step}, ... up to {@code to} concurrent users, each level held for
     * {@code level}, levels separated by {@code ramp} (both may be zero).
     */
    record Staircase(int from, int to, int step, Duration level, Duration ramp, Duration warmup) implements LoadShape {
        public Staircase {
            requireAtLeastOne("from", from);
            if (to < from) {
                throw new InvalidParameterException("to", to, "at least {from}", "from", from);
            }
            requireAtLeastOne("step", step);
            long minStep = ((long) to - from + MAX_LEVELS - 2) / (MAX_LEVELS - 1);
            if (step < minStep) {
                throw new InvalidParameterException("step", step, "at least " + minStep + ", for at most " + MAX_LEVELS
                        + " levels from {from} to {to}", "from", from, "to", to);
            }
            requirePositive("level", level);
            requireNotNegative("ramp", ramp);
            requireNotNegative("warmup", warmup);
        }

        /** Parses {@code FROM:TO:STEP}, e.g. {@code 50:1100:50}. */
        public static Staircase parse(String fromToStep, Duration level, Duration ramp, Duration warmup) {
            int[] v = parseTriple(fromToStep, "users");
            return new Staircase(v[0], v[1], v[2], level, ramp, warmup);
        }

        public int levels() {
            return (to - from) / step + 1;
        }

        public List<Integer> users() {
            List<Integer> users = new ArrayList<>();
            for (int i = 0; i < levels(); i++) {
                users.add(from + i * step);
            }
            return users;
        }

        @Override
        public Duration total() {
            return warmup.plus(level.multipliedBy(levels())).plus(ramp.multipliedBy(levels() - 1L));
        }

        @Override
        public List<Window> windows() {
            return steppedWindows(warmup, level, ramp, users());
        }

        @Override
        public Staircase smoke() {
            int t = Math.min(to, SMOKE_MAX_USERS);
            int f = Math.min(from, Math.max(1, t / 4));
            int s = Math.max(1, (t - f + 2) / 3); // ceil((t - f) / 3): at most 4 levels
            return new Staircase(f, t, s, min(level, Duration.ofSeconds(2)), Duration.ZERO, min(warmup, Duration.ofSeconds(2)));
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "staircase: %d -> %d step %d users, %ds per level, %ds ramps, %ds warm-up",
                    from, to, step, level.toSeconds(), ramp.toSeconds(), warmup.toSeconds());
        }
    }

    /** Open model: {@code rps} arrivals per second (one request each) for {@code duration}. */
    record ArrivalRate(double rps, Duration duration) implements Steady {
        public ArrivalRate {
            requirePositive("rps", rps, "req/s");
            requirePositive("duration", duration);
        }

        @Override
        public double load() {
            return rps;
        }

        @Override
        public ArrivalRate smoke() {
            return new ArrivalRate(Math.min(rps, SMOKE_MAX_RATE / 2), min(duration, Duration.ofSeconds(5)));
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "arrival rate: %s req/s for %ds", num(rps), duration.toSeconds());
        }
    }

    /**
     * Open model in rate steps: after {@code warmup} at {@code from} (not judged), {@code from},
     * {@code from+step}, ... {@code to} arrivals per second, each held for {@code level}: the capacity
     * under the SLA is the highest step whose p99 stays at or under {@code p99Ms} (and whose errors
     * stay within bounds), all lower steps passing too.
     */
    record SlaCapacity(double from, double to, double step, Duration level, double p99Ms, Duration warmup) implements LoadShape {
        public SlaCapacity {
            requirePositive("from", from, "req/s");
            requirePositive("to", to, "req/s");
            if (to < from) {
                throw new InvalidParameterException("to", plain(to), "at least {from}", "from", plain(from));
            }
            requirePositive("step", step, "req/s");
            // Rounded up to what the message shows, so that the value it names is accepted.
            double minStep = new BigDecimal((to - from) / (MAX_LEVELS - 1)).round(new MathContext(6, RoundingMode.CEILING)).doubleValue();
            if (step < minStep) {
                throw new InvalidParameterException("step", plain(step), "at least " + plain(minStep) + ", for at most "
                        + MAX_LEVELS + " levels from {from} to {to}", "from", plain(from), "to", plain(to));
            }
            requirePositive("level", level);
            requirePositive("p99Ms", p99Ms, "ms");
            requireNotNegative("warmup", warmup);
        }

        /** Parses {@code FROM:TO:STEP} in requests per second, e.g. {@code 1000:20000:1000}. */
        public static SlaCapacity parse(String fromToStep, Duration level, double p99Ms, Duration warmup) {
            int[] v = parseTriple(fromToStep, "req/s");
            return new SlaCapacity(v[0], v[1], v[2], level, p99Ms, warmup);
        }

        public List<Double> rates() {
            List<Double> rates = new ArrayList<>();
            int n = (int) Math.floor((to - from) / step + 1e-9) + 1;
            for (int i = 0; i < n; i++) {
                rates.add(from + i * step);
            }
            return rates;
        }

        @Override
        public Duration total() {
            return warmup.plus(level.multipliedBy(rates().size()));
        }

        @Override
        public List<Window> windows() {
            return steppedWindows(warmup, level, Duration.ZERO, rates());
        }

        @Override
        public SlaCapacity smoke() {
            double t = Math.min(to, SMOKE_MAX_RATE);
            double f = Math.min(from, t / 4);
            return new SlaCapacity(f, t, (t - f) / 3, min(level, Duration.ofSeconds(2)), p99Ms, min(warmup, Duration.ofSeconds(2)));
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "sla capacity: %s -> %s step %s req/s, %ds per level, %ds warm-up, p99 <= %s ms",
                    num(from), num(to), num(step), level.toSeconds(), warmup.toSeconds(), num(p99Ms));
        }
    }

    /**
     * The windows of a stepped shape: the warm-up at the first level (when there is one), then
     * each level for {@code level}, levels {@code ramp} apart.
     */
    private static List<Window> steppedWindows(Duration warmup, Duration level, Duration ramp, List<? extends Number> loads) {
        List<Window> windows = new ArrayList<>();
        if (!warmup.isZero()) {
            windows.add(new Window(WARMUP, Duration.ZERO, warmup, loads.get(0).doubleValue()));
        }
        for (int i = 0; i < loads.size(); i++) {
            windows.add(new Window(String.format(Locale.ROOT, "level-%02d", i + 1),
                    warmup.plus(level.plus(ramp).multipliedBy(i)), level, loads.get(i).doubleValue()));
        }
        return windows;
    }

    /** {@code FROM:TO:STEP} in whole numbers, read by the one level parser, {@link LevelList}. */
    private static int[] parseTriple(String text, String unit) {
        double[] range = LevelList.fromToStep(text).orElse(null);
        if (range != null && isWhole(range[0]) && isWhole(range[1]) && isWhole(range[2])) {
            return new int[] {(int) range[0], (int) range[1], (int) range[2]};
        }
        throw new InvalidParameterException("levels", "'" + text + "'", "FROM:TO:STEP in whole " + unit + ", e.g. 50:1100:50");
    }

    private static boolean isWhole(double value) {
        return value == Math.rint(value) && Math.abs(value) <= Integer.MAX_VALUE;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void requireAtLeastOne(String name, int value) {
        if (value < 1) {
            throw new InvalidParameterException(name, value, "a whole number, at least 1");
        }
    }

    private static void requirePositive(String name, double value, String unit) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new InvalidParameterException(name, plain(value), "a number above 0 (" + unit + ")");
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new InvalidParameterException(name, seconds(value), "longer than 0 s");
        }
    }

    private static void requireNotNegative(String name, Duration value) {
        if (value.isNegative()) {
            throw new InvalidParameterException(name, seconds(value), "0 s or longer");
        }
    }

    /** A duration as seconds for messages, e.g. {@code 0.5 s}. */
    static String seconds(Duration d) {
        return plain(d.toNanos() / 1e9) + " s";
    }

    /** A number for messages: whole numbers without a fraction, others to 6 significant digits. */
    private static String plain(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return Double.toString(d);
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return new BigDecimal(d).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    private static String num(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d);
    }
}
