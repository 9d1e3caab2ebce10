package org.testbed.runfolder.gate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.testbed.runfolder.csv.ResultRow;
import java.util.stream.Stream;
import org.testbed.runfolder.compare.Comparison;
import org.testbed.runfolder.compare.Comparison.Change;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.stats.Verdict;

/**
 * {@code compare --fail-on}: which figures of B may not be slower than A's, and by how much.
 *
 * <p>The grammar, terms separated by commas (the option may also be repeated):
 * <pre>
 *   FAIL_ON := TERM ( "," TERM )*
 *   TERM    := FIGURE [ "&gt;" PCT "%" ]
 *   FIGURE  := "slower" (every figure compare weighs that {@link Figure#gatedBySlower} says) | a figure's key
 *            ({@link #GATEABLE}: "rps", "p99", "cpu", "cost", "runq_wait", ...)
 *   PCT     := a number, 0 &lt; PCT &lt; 100
 * </pre>
 * e.g. {@code slower}, {@code rps,p99}, {@code slower>5%}, {@code rps>5%,p99>10%}. A figure named on
 * its own takes its own minimum over one given with {@code slower}; a figure named twice is an error.
 *
 * <p>The decision ({@link #outcome}), per matched step and gated figure: it fails when compare's
 * verdict is {@code slower} (beyond the interval and the noise floor, see {@link Verdict}: for rps a
 * lower figure, for p99 and cpu a higher one) and, with a minimum, when the estimated change is
 * beyond it too: {@code rps>5%} fails below 0.95 × A, {@code p99>10%} above 1.10 × A. A figure
 * with {@code no noise estimate} (a side measured once) is inconclusive, never passed; every other
 * verdict passes.
 *
 * @param text the option as given, for the report
 * @param minEffects the gated figures, each with the smallest slow-down that fails (0: any beyond noise)
 */
public record FailOn(String text, Map<Figure, Double> minEffects) {
    /** The JUnit report compare writes beside compare.csv. */
    public static final String FILE = "compare-junit.xml";
    private static final String EVERY = "slower";
    private static final Pattern TERM = Pattern.compile("([a-z0-9_.]+)(?:\\s*>\\s*([0-9]+(?:\\.[0-9]+)?)\\s*%)?");

    /**
     * What {@code --fail-on} takes, in one line; the figures are compare's own, so a figure compare
     * learns to weigh is gated by {@code slower} too when its declaration says so ({@link Figure#gatedBySlower}):
     * the server's saturation readings, the flight recordings' and the probes' figures explain or
     * describe a figure (where the time waited, was pinned or paused; what went on the wire) rather
     * than being one a user pays for, so they gate only when named.
     */
    public static final String USAGE = "--fail-on takes slower (" + names(gateable().filter(Figure::gatedBySlower))
            + ") or figures among " + names(gateable())
            + ", comma-separated, each with an optional smallest change >PCT% (0 < PCT < 100): e.g. slower, rps,p99,"
            + " 'slower>5%', 'p99>10%'";

    /** The figures compare weighs, each of which {@code --fail-on} may gate: those with a smallest change called. */
    private static Stream<Figure> gateable() {
        return Arrays.stream(Figure.values()).filter(f -> Double.isFinite(f.minEffect()) && f.at(Figure.Level.SAMPLE)
                || f == Figure.COST);
    }

    private static String names(Stream<Figure> figures) {
        return figures.map(Figure::key).collect(Collectors.joining(", "));
    }

    public FailOn {
        minEffects = Collections.unmodifiableMap(new EnumMap<>(minEffects));
    }

    /** Every figure, any slow-down beyond noise: what the JUnit report says when {@code --fail-on} is not given. */
    public static FailOn every() {
        Map<Figure, Double> all = new EnumMap<>(Figure.class);
        gateable().filter(Figure::gatedBySlower).forEach(f -> all.put(f, 0.0));
        return new FailOn(EVERY, all);
    }

    /**
     * Reads {@code --fail-on}, each value one or more terms; anything else is an
     * {@link IllegalArgumentException} of one line naming what is allowed.
     */
    public static FailOn parse(List<String> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("--fail-on needs a value; " + USAGE);
        }
        String text = String.join(",", values);
        Double every = null;
        Map<Figure, Double> named = new EnumMap<>(Figure.class);
        for (String value : values) {
            for (String term : value.split(",", -1)) {
                String t = term.strip().toLowerCase(Locale.ROOT);
                if (t.isEmpty()) {
                    throw new IllegalArgumentException("--fail-on '" + text + "' has an empty term; " + USAGE);
                }
                Matcher m = TERM.matcher(t);
                if (!m.matches()) {
                    throw new IllegalArgumentException("--fail-on '" + text + "': '" + term.strip() + "' is not a figure"
                            + " with an optional >PCT%; " + USAGE);
                }
                double min = m.group(2) == null ? 0 : Double.parseDouble(m.group(2)) / 100;
                if (m.group(2) != null && !(min > 0 && min < 1)) {
                    throw new IllegalArgumentException("--fail-on '" + text + "': the smallest change in '" + term.strip()
                            + "' must be above 0 % and below 100 %; " + USAGE);
                }
                String name = m.group(1);
                if (name.equals(EVERY)) {
                    if (every != null) {
                        throw new IllegalArgumentException("--fail-on '" + text + "' names slower twice; " + USAGE);
                    }
                    every = min;
                    continue;
                }
                Figure figure = gateable().filter(x -> x.key().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("--fail-on '" + text + "': no figure '" + name
                                + "'; " + USAGE));
                if (named.containsKey(figure)) {
                    throw new IllegalArgumentException("--fail-on '" + text + "' names " + name + " twice; " + USAGE);
                }
                named.put(figure, min);
            }
        }
        Map<Figure, Double> gated = new EnumMap<>(Figure.class);
        for (Figure figure : gateable().toList()) {
            Double min = named.containsKey(figure) ? named.get(figure) : figure.gatedBySlower() ? every : null;
            if (min != null) {
                gated.put(figure, min);
            }
        }
        return new FailOn(text, gated);
    }

    /** How much slower B is than A on this figure, as a share: 1 − B/A for throughput, B/A − 1 for p99 and CPU. */
    public static double slowdown(Change c) {
        return c.figure().higherIsBetter() ? 1 - c.ratio() : c.ratio() - 1;
    }

    /** Whether this figure is gated. */
    public boolean gates(Figure figure) {
        return minEffects.containsKey(figure);
    }

    /** The decision on one figure of one step; see the class comment. */
    public Outcome outcome(Change c) {
        Double min = minEffects.get(c.figure());
        if (min == null) {
            throw new IllegalArgumentException(c.figure().key() + " is not gated by --fail-on " + text);
        }
        if (c.verdict() == Verdict.NO_NOISE_ESTIMATE) {
            return Outcome.INCONCLUSIVE;
        }
        if (c.verdict() == Verdict.SLOWER) {
            return slowdown(c) > min ? Outcome.FAILED : Outcome.PASSED;
        }
        return Outcome.PASSED;
    }

    /**
     * The gate over a comparison: one check per matched step and gated figure, in the comparison's
     * order; {@code a} and {@code b} name the two runs in the messages.
     */
    public GateSuite check(Comparison comparison, String a, String b) {
        List<GateCase> cases = new ArrayList<>();
        for (Comparison.Match m : comparison.matched()) {
            for (Change c : m.changes()) {
                if (gates(c.figure())) {
                    cases.add(gateCase(m, c, a, b));
                }
            }
        }
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("fail_on", text);
        properties.put("a", a);
        properties.put("b", b);
        return new GateSuite("testbed compare " + a + " vs " + b, Verdict.SLOWER.wireName(), properties, cases);
    }

    private GateCase gateCase(Comparison.Match m, Change c, String a, String b) {
        ResultRow.StepKey k = m.key();
        Outcome outcome = outcome(c);
        double min = minEffects.get(c.figure());
        String unit = c.figure().unit().isEmpty() ? "" : (c.figure().unit().startsWith("/") ? "" : " ") + c.figure().unit();
        String figures = "; A " + Numbers.figure(c.a()) + unit + " (" + a + "), B " + Numbers.figure(c.b()) + unit + " (" + b + ")";
        String ratio = "B/A " + Numbers.ratio(c.ratio()) + interval(c);
        String caveats = m.flags().isEmpty() ? "" : "; caveats: " + String.join("; ", m.flags());
        String message = switch (outcome) {
            case FAILED -> "slower beyond noise: " + ratio + ", " + Numbers.percent(slowdown(c)) + " slower"
                    + (min > 0 ? ", more than the " + Numbers.percent(min) + " allowed" : "") + figures + caveats;
            case INCONCLUSIVE -> "no noise estimate: " + c.nA() + " sample(s) in A, " + c.nB() + " in B, so B/A "
                    + Numbers.ratio(c.ratio()) + " cannot be told from noise (measure with --forks 2 --iterations 3 or"
                    + " more)" + figures + caveats;
            case PASSED -> c.verdict() == Verdict.SLOWER
                    ? "slower beyond noise but by " + Numbers.percent(slowdown(c)) + ", within the " + Numbers.percent(min)
                            + " allowed: " + ratio + figures
                    : c.verdict().wireName() + ": " + ratio + figures;
        };
        return new GateCase(k.variant(), k.variant() + " " + k.scenario() + " " + k.describe() + " " + c.figure().key(),
                outcome, message, String.join("\n", m.flags()));
    }

    private static String interval(Change c) {
        if (Double.isNaN(c.ciLow()) || Double.isNaN(c.ciHigh())) {
            return "";
        }
        return " [" + Numbers.ratio(c.ciLow()) + ", " + Numbers.ratio(c.ciHigh()) + "] at "
                + String.format(Locale.ROOT, "%.0f %%", 100 * c.confidence()) + " (n " + c.nA() + "/" + c.nB()
                + ", noise floor " + Numbers.percent(c.noiseFloor()) + ")";
    }

    /**
     * The console's account of the gate: one line saying what was checked and how it went, then each
     * failed check on a line of its own (the table above already shows every verdict).
     */
    public static String text(GateSuite suite, String label) {
        StringBuilder out = new StringBuilder(label).append(": ").append(suite.summary()).append('\n');
        for (GateCase c : suite.cases()) {
            if (c.outcome() == Outcome.FAILED) {
                out.append("  ").append(c.outcome().word()).append(' ').append(c.name()).append(": ").append(c.message())
                        .append('\n');
            }
        }
        return out.toString();
    }
}
