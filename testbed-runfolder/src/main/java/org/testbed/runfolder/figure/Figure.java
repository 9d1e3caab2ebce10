package org.testbed.runfolder.figure;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Every figure the run folder holds, declared once: its key (the column and wire name), what a
 * reader calls it, its unit and digits, which way is better, the smallest change {@code compare}
 * calls, whether {@code --fail-on slower} gates it, how {@code --assert} writes a bound on it, where
 * its value comes from, and the levels it exists at. Everything that shows a figure (the console,
 * compare.csv and its page, the report, {@code --fail-on} and {@code --assert}, docs/DESIGN.md's
 * table of figures) reads it from here, so that a new figure is one constant and its producer.
 *
 * <p>A figure of {@link Source#PROBE} needs nothing more: its samples.csv and steps.csv columns,
 * its comparison, its assertion and its place in the report follow from this declaration
 * ({@code Measured}). The others are read from the columns that held them before figures were
 * declared, each by the record that holds it ({@code figure(Figure)} beside each record).
 */
public enum Figure {
    /** Completed requests per second. */
    RPS("rps", "throughput", "req/s", Digits.decimals(1), Better.HIGHER, 0.05, true, Quantity.RATE, Source.DRIVER,
            Level.SAMPLE, Level.STEP, Level.OPERATION, Level.SECOND),
    /**
     * Median latency. In a closed loop it follows the throughput (users over rate, Little's law), with
     * none of the tail's extra drift between runs: the throughput's smallest change.
     */
    P50("p50", "p50 latency", "ms", Digits.decimals(3), Better.LOWER, 0.05, false, Quantity.TIME, Source.DRIVER,
            Level.STEP, Level.OPERATION, Level.SECOND),
    P90("p90", "p90 latency", "ms", Digits.decimals(3), Better.LOWER, 0.15, false, Quantity.TIME, Source.DRIVER,
            Level.STEP, Level.OPERATION),
    /**
     * p99 latency. A tail moves more between two runs than within one: an A/A pair of default runs
     * here gave vertx's delay p99 173–185 ms, then 200–209 ms, steady and warmed up both times; its
     * smallest change called is 15 %.
     */
    P99("p99", "p99 latency", "ms", Digits.decimals(3), Better.LOWER, 0.15, true, Quantity.TIME, Source.DRIVER,
            Level.SAMPLE, Level.STEP, Level.OPERATION, Level.SECOND),
    P999("p99.9", "p99.9 latency", "ms", Digits.decimals(3), Better.LOWER, 0.15, false, Quantity.TIME, Source.DRIVER,
            Level.STEP, Level.OPERATION),
    /**
     * Failed requests in the window (the most any sample had, in results.csv). Compare does not weigh
     * it (no smallest change): any error is a flag beside the step's verdicts.
     */
    ERRORS("errors", "errors", "", Digits.decimals(0), Better.LOWER, Double.NaN, false, Quantity.COUNT, Source.DRIVER,
            Level.SAMPLE, Level.STEP, Level.OPERATION, Level.SECOND),
    /** Server CPU time per request, user plus system. */
    CPU("cpu", "CPU per request", "ms/req", Digits.decimals(5), Better.LOWER, 0.05, true, Quantity.TIME, Source.SERVER,
            Level.SAMPLE, Level.STEP),
    /**
     * What a million requests cost, in the run's price unit: a price over a throughput, so computed
     * from both (only when both runs of a comparison have a price).
     */
    COST("cost", "cost per million requests", "per million requests", Digits.significant(6), Better.LOWER, 0.05, true,
            Quantity.NUMBER, Source.PRICE, Level.STEP),
    /**
     * The server's threads' wait for a CPU per request (schedstat). A scheduler's wait scatters more
     * than CPU time does: 25 %, a first setting. It explains a figure rather than being one a user
     * pays for, so {@code slower} does not gate it.
     */
    RUNQ_WAIT("runq_wait", "run-queue wait per request", "µs/req", Digits.decimals(2), Better.LOWER, 0.25, false,
            Quantity.NUMBER, Source.SATURATION, Level.SAMPLE, Level.STEP),
    /** The server's involuntary context switches per request; as {@link #RUNQ_WAIT}. */
    INVOLUNTARY_CS("involuntary_cs", "involuntary switches per request", "/req", Digits.decimals(4), Better.LOWER, 0.25,
            false, Quantity.NUMBER, Source.SATURATION, Level.SAMPLE, Level.STEP),
    /**
     * Virtual threads pinned to their carrier while blocked, per request ({@code --jfr}). An event is a
     * block of 20 ms or more (the JDK's threshold), so its count moves by whole events: 25 %.
     */
    PINNED("pinned", "pinned virtual threads per request", "/req", Digits.decimals(5), Better.LOWER, 0.25, false,
            Quantity.NUMBER, Source.RECORDING, Level.SAMPLE, Level.STEP),
    /** The time virtual threads were pinned while blocked, per request; as {@link #PINNED}. */
    PINNED_MS("pinned_ms", "time pinned per request", "ms/req", Digits.decimals(5), Better.LOWER, 0.25, false,
            Quantity.NUMBER, Source.RECORDING, Level.SAMPLE, Level.STEP),
    /** The collector's stop-the-world pauses per request ({@code --jfr}): a window holds a handful, 25 %. */
    GC_PAUSE("gc_pause", "GC pause per request", "ms/req", Digits.decimals(5), Better.LOWER, 0.25, false,
            Quantity.NUMBER, Source.RECORDING, Level.SAMPLE, Level.STEP),
    /**
     * The bytes of HTTP a request took on the wire, as the driver wrote them (request line, headers,
     * body). The same requests send the same bytes: any change beyond 5 % is a change of the requests.
     */
    BYTES_IN("bytes_in", "request bytes", "B/req", Digits.decimals(1), Better.LOWER, 0.05, false, Quantity.BYTES,
            Source.PROBE, Level.SAMPLE, Level.STEP),
    /**
     * The bytes of HTTP the server answered a request with, as the driver read them off the socket
     * (status line, headers, body as sent: compressed under gzip). What the gzip condition saves.
     */
    BYTES_OUT("bytes_out", "response bytes", "B/req", Digits.decimals(1), Better.LOWER, 0.05, false, Quantity.BYTES,
            Source.PROBE, Level.SAMPLE, Level.STEP),
    /**
     * With {@code --fault}: the seconds from the fault's end until a second's throughput and p99 are
     * both back within 10 % of the seconds before the fault; none when they never were in the window
     * ({@link #UNRECOVERED}). Read in whole seconds, so a change of one second on two is 50 %: 25 %
     * is the smallest called, and it explains more than it costs, so {@code slower} does not gate it.
     */
    RECOVERY("recovery", "recovery after the fault", "s", Digits.decimals(0), Better.LOWER, 0.25, false,
            Quantity.NUMBER, Source.PROBE, Level.SAMPLE, Level.STEP),
    /** With {@code --fault}: 1 when the window ended before it recovered, else 0; the step's is its samples' median. */
    UNRECOVERED("unrecovered", "not recovered", "", Digits.decimals(0), Better.LOWER, Double.NaN, false, Quantity.COUNT,
            Source.PROBE, Level.SAMPLE, Level.STEP),
    /**
     * With {@code --fault}: responses with a status other than the expected one (a 503 while the store
     * hangs) from the fault's start until recovered (or the window's end). Counts move with the
     * load and the fault's length: 25 %.
     */
    FAULT_STATUS("fault_status", "bad statuses in the fault", "", Digits.decimals(0), Better.LOWER, 0.25, false,
            Quantity.COUNT, Source.PROBE, Level.SAMPLE, Level.STEP),
    /** As {@link #FAULT_STATUS}: requests without an answer within the driver's {@code --timeout}. */
    FAULT_TIMEOUTS("fault_timeouts", "timeouts in the fault", "", Digits.decimals(0), Better.LOWER, 0.25, false,
            Quantity.COUNT, Source.PROBE, Level.SAMPLE, Level.STEP),
    /** As {@link #FAULT_STATUS}: connections refused, reset or closed under a request. */
    FAULT_CONNECTION("fault_connection", "connection errors in the fault", "", Digits.decimals(0), Better.LOWER, 0.25,
            false, Quantity.COUNT, Source.PROBE, Level.SAMPLE, Level.STEP),
    /**
     * With {@code --fault}: answers of the expected status whose content the driver's checks refused,
     * over the whole window. A fault may cost requests, never a wrong answer: any is a flag, not weighed.
     */
    WRONG("wrong", "wrong answers", "", Digits.decimals(0), Better.LOWER, Double.NaN, false, Quantity.COUNT,
            Source.PROBE, Level.SAMPLE, Level.STEP),
    /**
     * Requests the load driver had sent and still had no answer to when the window ended, which it
     * then cut (testbed-nio and wrk abandon them, JMeter lets them finish after the window or interrupts
     * them): neither requests nor errors of the window, since the cut is the driver's, not the server's.
     * At most one per connection of a closed step; many, in an open step, when the server fell behind.
     * It says how the window ended, not how fast the server is: compare does not weigh it.
     */
    UNFINISHED("unfinished", "unfinished requests", "", Digits.decimals(0), Better.LOWER, Double.NaN, false,
            Quantity.COUNT, Source.PROBE, Level.SAMPLE, Level.STEP),
    /**
     * How fast the server's CPUs ran through the window, against their own best: a fixed 10 ms loop
     * timed in its thread's CPU time on each of them, about every 2 s, its fastest tenth over the run
     * over its time inside the window, averaged (1 at full speed, 0.8 when the host took a fifth of the
     * CPUs away). It says what the window measured, not the server, so compare does not weigh it.
     */
    SERVER_SPEED("server_speed", "server CPUs' speed", "", Digits.decimals(3), Better.HIGHER, Double.NaN, false,
            Quantity.NUMBER, Source.PROBE, Level.SAMPLE, Level.STEP),
    /** As {@link #SERVER_SPEED}, on the load driver's and memcached's CPUs. */
    LOAD_SPEED("load_speed", "load CPUs' speed", "", Digits.decimals(3), Better.HIGHER, Double.NaN, false,
            Quantity.NUMBER, Source.PROBE, Level.SAMPLE, Level.STEP);

    /** Which way a figure is better. */
    public enum Better {
        HIGHER("higher is better"),
        LOWER("lower is better");

        private final String words;

        Better(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** Where a figure's value comes from. */
    public enum Source {
        /** the load driver's count of the window */
        DRIVER,
        /** the server's CPU time over the window ({@code /proc}) */
        SERVER,
        /** the server's saturation readings (schedstat, context switches) */
        SATURATION,
        /** the server's flight recording ({@code --jfr}, jfr.csv) */
        RECORDING,
        /** the run's price over its throughput */
        PRICE,
        /** a probe's: its samples.csv and steps.csv columns follow from its declaration */
        PROBE
    }

    /** Where a figure exists: a sample, a step (its samples' median), an operation of a step, a second of a window. */
    public enum Level {
        SAMPLE, STEP, OPERATION, SECOND
    }

    /** How a figure is written: fixed decimals, or significant digits for a figure that spans decades (a cost). */
    public record Digits(int digits, boolean significant) {
        public static Digits decimals(int n) {
            return new Digits(n, false);
        }

        public static Digits significant(int n) {
            return new Digits(n, true);
        }
    }

    private final String key;
    private final String label;
    private final String unit;
    private final Digits digits;
    private final Better better;
    private final double minEffect;
    private final boolean gatedBySlower;
    private final Quantity quantity;
    private final Source source;
    private final Set<Level> levels;

    Figure(String key, String label, String unit, Digits digits, Better better, double minEffect, boolean gatedBySlower,
           Quantity quantity, Source source, Level... levels) {
        this.key = key;
        this.label = label;
        this.unit = unit;
        this.digits = digits;
        this.better = better;
        this.minEffect = minEffect;
        this.gatedBySlower = gatedBySlower;
        this.quantity = quantity;
        this.source = source;
        this.levels = levels.length == 0 ? EnumSet.noneOf(Level.class) : EnumSet.copyOf(Arrays.asList(levels));
    }

    /** The column and wire name: compare.csv's {@code metric}, {@code --fail-on}'s and {@code --assert}'s names. */
    public String key() {
        return key;
    }

    /** What a reader calls it: {@code CPU per request}. */
    public String label() {
        return label;
    }

    /** Its unit as shown after a value ({@code ms/req}); empty for a plain count. */
    public String unit() {
        return unit;
    }

    public Digits digits() {
        return digits;
    }

    public Better better() {
        return better;
    }

    public boolean higherIsBetter() {
        return better == Better.HIGHER;
    }

    /**
     * The smallest relative change {@code compare} calls a change, whatever the runs' own scatter; NaN
     * for a figure compare does not weigh.
     */
    public double minEffect() {
        return minEffect;
    }

    /**
     * Whether {@code --fail-on slower} gates it: the figures a user pays for (throughput, tail, CPU,
     * cost); not those that say where time went (a queue, a pin, a pause), which move with whatever
     * else the machine runs, nor those that describe the work (bytes): named, they gate too.
     */
    public boolean gatedBySlower() {
        return gatedBySlower;
    }

    /** How {@code --assert} writes a bound on it. */
    public Quantity quantity() {
        return quantity;
    }

    public Source source() {
        return source;
    }

    public Set<Level> levels() {
        return levels.isEmpty() ? EnumSet.noneOf(Level.class) : EnumSet.copyOf(levels);
    }

    public boolean at(Level level) {
        return levels.contains(level);
    }

    /** A value as the files and the console write it; NaN or infinite (not known) is empty. */
    public String format(double value) {
        if (!Double.isFinite(value)) {
            return "";
        }
        if (digits.significant()) {
            return new BigDecimal(value).round(new MathContext(digits.digits())).stripTrailingZeros().toPlainString();
        }
        return String.format(Locale.ROOT, "%." + digits.digits() + "f", value);
    }

    /** A value with its unit, {@code 0.04213 ms/req}; {@code -} when not known. */
    public String show(double value) {
        String v = format(value);
        return v.isEmpty() ? "-" : unit.isEmpty() ? v : unit.startsWith("/") ? v + unit : v + " " + unit;
    }

    /**
     * What compare calls a change of this figure beyond noise, better then worse: a cost is
     * {@code cheaper} or {@code costlier}, a size {@code smaller} or {@code larger}, every other figure
     * {@code faster} or {@code slower} (the verdict's own words, what {@code --fail-on slower} gates).
     */
    public List<String> verdictWords() {
        if (source == Source.PRICE) {
            return List.of("cheaper", "costlier");
        }
        if (quantity == Quantity.BYTES) {
            return List.of("smaller", "larger");
        }
        return List.of("faster", "slower");
    }

    /** The figure of this key ({@code p999} for {@code p99.9} too), if there is one. */
    public static Optional<Figure> named(String key) {
        String k = key.equals("p999") ? "p99.9" : key;
        return Arrays.stream(values()).filter(f -> f.key.equals(k)).findFirst();
    }

    /** The figures of {@link Source#PROBE} at {@code level}, in declaration order: their columns follow from here. */
    public static List<Figure> probed(Level level) {
        return Arrays.stream(values()).filter(f -> f.source == Source.PROBE && f.at(level)).toList();
    }
}
