package org.testbed.runfolder.gate;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.figure.Quantity;

/**
 * One {@code --assert} of {@code run} and {@code report}: a bound every matching step's figure must
 * keep.
 *
 * <p>The grammar:
 * <pre>
 *   ASSERT := [ SCENARIO ":" ] METRIC OP VALUE
 *   METRIC := a figure a step holds ({@link #ASSERTABLE}): "rps" | "p50" | "p90" | "p99" | "p99.9" (or "p999")
 *             | "errors" | "cpu" | a probe's figure ("bytes_out", ...)
 *   OP     := "&lt;=" | "&lt;" | "&gt;=" | "&gt;" | "=" (errors only)
 *   VALUE  := as the figure's {@link Quantity} says: rps a number of requests per second; errors a whole
 *             number; a time (p50 … p99.9, cpu) with its unit, us, ms or s; a size (bytes_out) with its
 *             unit, B, kB, MB, KiB or MiB
 * </pre>
 * e.g. {@code p99<=5ms}, {@code errors=0}, {@code rps>=1000}, {@code mix:cpu<=50us}, {@code bytes_out<=2kB}.
 * A scenario scope limits it to that scenario's steps; the caller checks the scenario is one of the run's.
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
 * @param figure the figure it bounds
 * @param op how the figure must compare with the bound
 * @param bound the bound in the figure's held unit (ms for a time, bytes for a size, requests per second, a count)
 * @param unit the unit the bound was written in ({@code ms}, {@code kB}; empty for rps and errors), shown in messages
 */
public record Assertion(String label, Optional<String> scenario, Figure figure, Op op, double bound, String unit) {
    private static final Pattern FORM = Pattern.compile(
            "(?:([a-z][a-z0-9_-]*)\\s*:\\s*)?([a-z][a-z0-9._]*)\\s*(<=|>=|==|=|<|>)\\s*([0-9.+-].*)");
    private static final Pattern VALUE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-zµ/]*)");

    /**
     * The figures a step holds and an assertion can bound: results.csv's (the driver's throughput,
     * percentiles and errors, the server's CPU per request) and the probes' (steps.csv's medians).
     */
    public static final List<Figure> ASSERTABLE = Arrays.stream(Figure.values())
            .filter(f -> f.at(Figure.Level.STEP) && (f.source() == Figure.Source.DRIVER || f.source() == Figure.Source.SERVER
                    || f.source() == Figure.Source.PROBE))
            .toList();

    /** What {@code --assert} takes, in one line. */
    public static final String USAGE = "the form is [SCENARIO:]METRIC OP VALUE, METRIC one of "
            + ASSERTABLE.stream().map(Figure::key).collect(Collectors.joining(", "))
            + ", OP <=, <, >=, > (or = for errors), a latency or cpu (ms per request) with its unit us, ms or s,"
            + " a size with its unit B, kB, MB, KiB or MiB, rps in requests per second, errors a whole number:"
            + " e.g. 'p99<=5ms', 'errors=0', 'rps>=1000', 'mix:cpu<=50us', 'bytes_out<=2kB'";

    /** The step's value of {@code figure}: results.csv's row where it holds it, else steps.csv's record; NaN when neither. */
    public static double of(Figure figure, ResultRow row, StepRecord step) {
        double v = row.figure(figure);
        return Double.isNaN(v) && step != null ? step.figure(figure) : v;
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
        // Names and operators in any case; a unit keeps its case to be told (kB, KiB), and is matched without it.
        Matcher m = FORM.matcher(lowerBeforeValue(given));
        if (!m.matches()) {
            throw bad(given, "not an assertion");
        }
        Optional<String> scenario = Optional.ofNullable(m.group(1));
        Figure figure = Figure.named(m.group(2)).filter(ASSERTABLE::contains)
                .orElseThrow(() -> bad(given, "no metric '" + m.group(2) + "'"));
        Op op = Op.of(m.group(3));
        if (op == Op.EQ && figure != Figure.ERRORS) {
            throw bad(given, "= is for errors only; bound " + figure.key() + " with <=, <, >= or >");
        }
        Quantity q = figure.quantity();
        Matcher v = VALUE.matcher(m.group(4).strip());
        if (!v.matches()) {
            throw bad(given, "'" + m.group(4).strip() + "' is not a number" + (q.needsUnit() ? " with its unit" : ""));
        }
        double number = Double.parseDouble(v.group(1));
        String unit = v.group(2);
        if (q.needsUnit()) {
            unit = q.unit(unit).orElseThrow(() -> bad(given, figure.key() + " is " + (q == Quantity.TIME ? "a time" : "a size")
                    + ": give its unit, " + q.unitList() + (v.group(2).isEmpty() ? "" : ", not '" + v.group(2) + "'")
                    + " (e.g. '" + figure.key() + (q == Quantity.TIME ? "<=5ms')" : "<=2kB')")));
        } else if (q == Quantity.COUNT) {
            if (!unit.isEmpty() || v.group(1).contains(".")) {
                throw bad(given, figure.key() + " takes a whole number, e.g. '" + figure.key() + "=0'");
            }
        } else if (!unit.isEmpty()) {
            throw bad(given, figure.key() + " takes a number without a unit (" + figure.unit() + "), e.g. '" + figure.key() + ">=1000'");
        }
        String label = scenario.map(s -> s + ":").orElse("") + figure.key() + op.symbol() + Numbers.exact(v.group(1)) + unit;
        return new Assertion(label, scenario, figure, op, q.toHeld(number, unit), unit);
    }

    /** The assertion with its scope, name and operator in lower case, the value as given (its unit's case tells kB from KiB). */
    private static String lowerBeforeValue(String given) {
        Matcher op = Pattern.compile("(<=|>=|==|=|<|>)").matcher(given);
        if (!op.find()) {
            return given.toLowerCase(Locale.ROOT);
        }
        return given.substring(0, op.end()).toLowerCase(Locale.ROOT) + given.substring(op.end());
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

    /** A figure in the unit the bound was written in: {@code 4.2 ms}, {@code 1200 req/s}, {@code 3}, {@code 1.9 kB}. */
    public String show(double value) {
        return Numbers.figure(inUnit(value)) + unitSuffix();
    }

    /** The bound as it was given, in its unit: {@code 5 ms}, {@code 1500.5 req/s}. */
    public String showBound() {
        return Numbers.exact(inUnit(bound)) + unitSuffix();
    }

    /** An interval in the bound's unit: {@code [3.9, 4.5] ms}. */
    public String showInterval(double low, double high) {
        return "[" + Numbers.figure(inUnit(low)) + ", " + Numbers.figure(inUnit(high)) + "]" + unitSuffix();
    }

    /** A figure and its interval, the unit once: {@code 4.2 [3.9, 4.5] ms}. */
    public String showWithInterval(double value, double low, double high) {
        return Numbers.figure(inUnit(value)) + " " + showInterval(low, high);
    }

    private double inUnit(double held) {
        return figure.quantity().fromHeld(held, unit);
    }

    /** The bound's unit; for a figure written without one, its own ({@code req/s}), nothing for a count. */
    private String unitSuffix() {
        if (!unit.isEmpty()) {
            return " " + unit;
        }
        return figure.quantity() == Quantity.COUNT || figure.unit().isEmpty() ? "" : " " + figure.unit();
    }

    @Override
    public String toString() {
        return label;
    }
}
