package org.testbed.runfolder.gate;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.Spread;

/**
 * One {@code --assert} of {@code run} and {@code report}: a bound every matching step's figure must
 * keep.
 *
 * <p>The grammar:
 * <pre>
 *   ASSERT := [ SCENARIO ":" ] METRIC OP VALUE
 *   METRIC := "rps" | "p50" | "p90" | "p99" | "p99.9" (or "p999") | "errors" | "cpu"
 *   OP     := "&lt;=" | "&lt;" | "&gt;=" | "&gt;" | "=" (errors only)
 *   VALUE  := rps: requests per second, a number; errors: a whole number;
 *             p50 … p99.9 (latency) and cpu (server CPU time per request): a number and its unit, us, ms or s
 * </pre>
 * e.g. {@code p99<=5ms}, {@code errors=0}, {@code rps>=1000}, {@code mix:cpu<=50us}. A scenario
 * scope limits it to that scenario's steps; the caller checks the scenario is one of the run's.
 *
 * <p>The decision ({@link #decide}): with an interval (a step measured more than once: steps.csv's
 * 95 % interval of rps, p99 and cpu) it passes only when the whole interval is on the right side
 * of the bound, fails only when the whole interval is on the wrong side, and is inconclusive
 * otherwise; without one (a single sample, or p50, p90, p99.9 and errors, which steps.csv keeps no
 * interval of) the figure itself decides. Errors are results.csv's exact count: the most any sample
 * of the step had.
 *
 * @param label the assertion, written the one way, e.g. {@code mix:p99<=5ms}
 * @param scenario the scenario it is limited to, if any
 * @param metric the figure it bounds
 * @param op how the figure must compare with the bound
 * @param bound the bound in the figure's own unit (ms, requests per second, a count)
 * @param unit the unit the bound was written in ({@code ms}, {@code us}, {@code s}; empty for rps and errors), shown in messages
 */
public record Assertion(String label, Optional<String> scenario, Metric metric, Op op, double bound, String unit) {
    private static final Pattern FORM = Pattern.compile(
            "(?:([a-z][a-z0-9_-]*)\\s*:\\s*)?([a-z][a-z0-9.]*)\\s*(<=|>=|==|=|<|>)\\s*([0-9.+-].*)");
    private static final Pattern VALUE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([a-zµ/]*)");

    /** What {@code --assert} takes, in one line. */
    public static final String USAGE = "the form is [SCENARIO:]METRIC OP VALUE, METRIC one of "
            + Arrays.stream(Metric.values()).map(Metric::wireName).collect(Collectors.joining(", "))
            + ", OP <=, <, >=, > (or = for errors), a latency or cpu (ms per request) with its unit us, ms or s,"
            + " rps in requests per second, errors a whole number: e.g. 'p99<=5ms', 'errors=0', 'rps>=1000',"
            + " 'mix:cpu<=50us'";

    /** How a metric's bound is written. */
    public enum Kind {
        /** requests per second, a plain number */
        RATE,
        /** a time with its unit, held in ms */
        TIME,
        /** a whole number */
        COUNT
    }

    /** The figures an assertion can bound, each read from results.csv and, where it has one, its interval from steps.csv. */
    public enum Metric {
        RPS("rps", Kind.RATE, r -> r.throughput().rps(), s -> s.repeats().rps()),
        P50("p50", Kind.TIME, r -> r.latency().p50Ms(), null),
        P90("p90", Kind.TIME, r -> r.latency().p90Ms(), null),
        P99("p99", Kind.TIME, r -> r.latency().p99Ms(), s -> s.repeats().p99()),
        P999("p99.9", Kind.TIME, r -> r.latency().p999Ms(), null),
        ERRORS("errors", Kind.COUNT, r -> r.throughput().errors(), null),
        /** Server CPU time per request, user plus system. */
        CPU("cpu", Kind.TIME, r -> r.server().cpuMsPerReq(), s -> s.repeats().cpu());

        private final String wireName;
        private final Kind kind;
        private final ToDoubleFunction<ResultRow> ofRow;
        private final Function<StepRecord, Spread> ofStep;

        Metric(String wireName, Kind kind, ToDoubleFunction<ResultRow> ofRow, Function<StepRecord, Spread> ofStep) {
            this.wireName = wireName;
            this.kind = kind;
            this.ofRow = ofRow;
            this.ofStep = ofStep;
        }

        public String wireName() {
            return wireName;
        }

        public Kind kind() {
            return kind;
        }

        /** The step's figure (results.csv: the median of its samples; errors the most any had); NaN when not measured. */
        public double of(ResultRow row) {
            return ofRow.applyAsDouble(row);
        }

        /** The spread steps.csv keeps of this figure, if it keeps one (rps, p99, cpu). */
        public Optional<Spread> spread(StepRecord step) {
            return ofStep == null ? Optional.empty() : Optional.of(ofStep.apply(step));
        }

        static Optional<Metric> named(String name) {
            String n = name.equals("p999") ? "p99.9" : name;
            return Arrays.stream(values()).filter(m -> m.wireName.equals(n)).findFirst();
        }
    }

    /** How a figure must compare with the bound. */
    public enum Op {
        LE("<=", "above"),
        LT("<", "at or above"),
        GE(">=", "below"),
        GT(">", "at or below"),
        EQ("=", "other than");

        private final String symbol;
        private final String wrongSide;

        Op(String symbol, String wrongSide) {
            this.symbol = symbol;
            this.wrongSide = wrongSide;
        }

        public String symbol() {
            return symbol;
        }

        /** Where a figure that breaks the bound lies, in words: {@code above}. */
        public String wrongSide() {
            return wrongSide;
        }

        /** Whether {@code value} keeps the bound. */
        public boolean holds(double value, double bound) {
            return switch (this) {
                case LE -> value <= bound;
                case LT -> value < bound;
                case GE -> value >= bound;
                case GT -> value > bound;
                case EQ -> value == bound;
            };
        }

        static Op of(String symbol) {
            return switch (symbol) {
                case "<=" -> LE;
                case "<" -> LT;
                case ">=" -> GE;
                case ">" -> GT;
                default -> EQ;
            };
        }
    }

    /**
     * Reads one {@code --assert}; anything else is an {@link IllegalArgumentException} of one line
     * naming what is allowed.
     */
    public static Assertion parse(String text) {
        String given = text == null ? "" : text.strip();
        Matcher m = FORM.matcher(given.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw bad(given, "not an assertion");
        }
        Optional<String> scenario = Optional.ofNullable(m.group(1));
        Metric metric = Metric.named(m.group(2)).orElseThrow(() -> bad(given, "no metric '" + m.group(2) + "'"));
        Op op = Op.of(m.group(3));
        if (op == Op.EQ && metric != Metric.ERRORS) {
            throw bad(given, "= is for errors only; bound " + metric.wireName() + " with <=, <, >= or >");
        }
        Matcher v = VALUE.matcher(m.group(4).strip());
        if (!v.matches()) {
            throw bad(given, "'" + m.group(4).strip() + "' is not a number" + (metric.kind() == Kind.TIME ? " with its unit" : ""));
        }
        double number = Double.parseDouble(v.group(1));
        String unit = v.group(2).equals("µs") ? "us" : v.group(2);
        switch (metric.kind()) {
            case TIME -> {
                if (!unit.equals("us") && !unit.equals("ms") && !unit.equals("s")) {
                    throw bad(given, metric.wireName() + " is a time: give its unit, us, ms or s"
                            + (unit.isEmpty() ? "" : ", not '" + unit + "'") + " (e.g. '" + metric.wireName() + "<=5ms')");
                }
            }
            case COUNT -> {
                if (!unit.isEmpty() || v.group(1).contains(".")) {
                    throw bad(given, "errors takes a whole number, e.g. 'errors=0'");
                }
            }
            default -> {
                if (!unit.isEmpty()) {
                    throw bad(given, "rps takes a number of requests per second without a unit, e.g. 'rps>=1000'");
                }
            }
        }
        String label = scenario.map(s -> s + ":").orElse("") + metric.wireName() + op.symbol() + Numbers.exact(v.group(1)) + unit;
        return new Assertion(label, scenario, metric, op, toMs(number, unit), unit);
    }

    /** A time written in {@code unit} in ms; any other figure as it is. */
    private static double toMs(double value, String unit) {
        return switch (unit) {
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            default -> value;
        };
    }

    /** A figure held in ms in {@code unit}; any other figure as it is. */
    private static double fromMs(double value, String unit) {
        return switch (unit) {
            case "us" -> value * 1000;
            case "s" -> value / 1000;
            default -> value;
        };
    }

    private static IllegalArgumentException bad(String text, String problem) {
        return new IllegalArgumentException("--assert '" + text + "': " + problem + "; " + USAGE);
    }

    /**
     * The decision on one figure: with an interval ({@code low} and {@code high} both finite),
     * passed when all of it keeps the bound, failed when none of it does, inconclusive when it
     * reaches both sides; without one, the figure decides, and a figure not measured (NaN) is
     * inconclusive.
     */
    public Outcome decide(double figure, double low, double high) {
        if (!Double.isFinite(low) || !Double.isFinite(high)) {
            if (Double.isNaN(figure)) {
                return Outcome.INCONCLUSIVE;
            }
            return op.holds(figure, bound) ? Outcome.PASSED : Outcome.FAILED;
        }
        double lo = Math.min(low, high);
        double hi = Math.max(low, high);
        if (op == Op.EQ) {
            if (lo == bound && hi == bound) {
                return Outcome.PASSED;
            }
            return bound < lo || bound > hi ? Outcome.FAILED : Outcome.INCONCLUSIVE;
        }
        boolean loKeeps = op.holds(lo, bound);
        boolean hiKeeps = op.holds(hi, bound);
        if (loKeeps && hiKeeps) {
            return Outcome.PASSED;
        }
        return !loKeeps && !hiKeeps ? Outcome.FAILED : Outcome.INCONCLUSIVE;
    }

    /** A figure of this metric in the unit the bound was written in: {@code 4.2 ms}, {@code 1200 req/s}, {@code 3}. */
    public String show(double figure) {
        return switch (metric.kind()) {
            case TIME -> Numbers.figure(fromMs(figure, unit)) + " " + unit;
            case RATE -> Numbers.figure(figure) + " req/s";
            case COUNT -> Numbers.figure(figure);
        };
    }

    /** The bound as it was given, in its unit: {@code 5 ms}, {@code 1500.5 req/s}. */
    public String showBound() {
        return switch (metric.kind()) {
            case TIME -> Numbers.exact(fromMs(bound, unit)) + " " + unit;
            case RATE -> Numbers.exact(bound) + " req/s";
            case COUNT -> Numbers.exact(bound);
        };
    }

    /** An interval of this metric in the bound's unit: {@code [3.9, 4.5] ms}. */
    public String showInterval(double low, double high) {
        return "[" + Numbers.figure(fromMs(low, unit)) + ", " + Numbers.figure(fromMs(high, unit)) + "]" + unitSuffix();
    }

    /** A figure and its interval, the unit once: {@code 4.2 [3.9, 4.5] ms}. */
    public String showWithInterval(double figure, double low, double high) {
        return Numbers.figure(fromMs(figure, unit)) + " " + showInterval(low, high);
    }

    private String unitSuffix() {
        return switch (metric.kind()) {
            case TIME -> " " + unit;
            case RATE -> " req/s";
            case COUNT -> "";
        };
    }

    @Override
    public String toString() {
        return label;
    }
}
