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
import org.testbed.runfolder.compare.Comparison;
import org.testbed.runfolder.compare.Comparison.Change;
import org.testbed.runfolder.compare.Comparison.Metric;
import org.testbed.runfolder.stats.Verdict;

/**
 * {@code compare --fail-on}: which figures of B may not be slower than A's, and by how much.
 *
 * <p>The grammar, terms separated by commas (the option may also be repeated):
 * <pre>
 *   FAIL_ON := TERM ( "," TERM )*
 *   TERM    := FIGURE [ "&gt;" PCT "%" ]
 *   FIGURE  := "slower" (every figure compare weighs) | "rps" | "p99" | "cpu" | "cost" | "runq_wait" | "involuntary_cs"
 *            | "pinned" | "pinned_ms" | "gc_pause"
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
public record FailOn(String text, Map<Metric, Double> minEffects) {
    /** The JUnit report compare writes beside compare.csv. */
    public static final String FILE = "compare-junit.xml";
    private static final String EVERY = "slower";
    /** The unit of each figure in the messages, by its name in compare.csv. */
    private static final Map<String, String> UNITS = Map.of("rps", " req/s", "p99", " ms", "cpu", " ms/req", "cost", " per million requests",
            "runq_wait", " µs/req run-queue wait", "involuntary_cs", " involuntary switches/req", "pinned", " pinned virtual threads/req",
            "pinned_ms", " ms pinned/req", "gc_pause", " ms GC pause/req");
    private static final Pattern TERM = Pattern.compile("([a-z0-9_.]+)(?:\\s*>\\s*([0-9]+(?:\\.[0-9]+)?)\\s*%)?");

    /**
     * What {@code --fail-on} takes, in one line; the figures are compare's own, so a figure compare
     * learns to weigh is gated by {@code slower} too, except the server's saturation readings and the
     * flight recordings' figures ({@link Metric#EXPLAINING}): they explain a figure (where the time
     * waited, was pinned or paused) rather than being one a user pays for, and they move with whatever
     * else the machine runs, so they gate only when named.
     */
    public static final String USAGE = "--fail-on takes slower (every figure but runq_wait, involuntary_cs, pinned, pinned_ms and gc_pause) or figures among "
            + Arrays.stream(Metric.values()).map(Metric::wireName).collect(Collectors.joining(", "))
            + ", comma-separated, each with an optional smallest change >PCT% (0 < PCT < 100): e.g. slower, rps,p99,"
            + " 'slower>5%', 'p99>10%'";

    public FailOn {
        minEffects = Collections.unmodifiableMap(new EnumMap<>(minEffects));
    }

    /** Every figure, any slow-down beyond noise: what the JUnit report says when {@code --fail-on} is not given. */
    public static FailOn every() {
        Map<Metric, Double> all = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            if (!Metric.EXPLAINING.contains(m)) {
                all.put(m, 0.0);
            }
        }
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
        Map<Metric, Double> named = new EnumMap<>(Metric.class);
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
                Metric metric = Arrays.stream(Metric.values()).filter(x -> x.wireName().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("--fail-on '" + text + "': no figure '" + name
                                + "'; " + USAGE));
                if (named.containsKey(metric)) {
                    throw new IllegalArgumentException("--fail-on '" + text + "' names " + name + " twice; " + USAGE);
                }
                named.put(metric, min);
            }
        }
        Map<Metric, Double> gated = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.values()) {
            Double min = named.containsKey(metric) ? named.get(metric) : Metric.EXPLAINING.contains(metric) ? null : every;
            if (min != null) {
                gated.put(metric, min);
            }
        }
        return new FailOn(text, gated);
    }

    /** How much slower B is than A on this figure, as a share: 1 − B/A for throughput, B/A − 1 for p99 and CPU. */
    public static double slowdown(Change c) {
        return c.metric().higherIsBetter() ? 1 - c.ratio() : c.ratio() - 1;
    }

    /** Whether this figure is gated. */
    public boolean gates(Metric metric) {
        return minEffects.containsKey(metric);
    }

    /** The decision on one figure of one step; see the class comment. */
    public Outcome outcome(Change c) {
        Double min = minEffects.get(c.metric());
        if (min == null) {
            throw new IllegalArgumentException(c.metric().wireName() + " is not gated by --fail-on " + text);
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
                if (gates(c.metric())) {
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
        double min = minEffects.get(c.metric());
        String unit = UNITS.getOrDefault(c.metric().wireName(), "");
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
        return new GateCase(k.variant(), k.variant() + " " + k.scenario() + " " + k.describe() + " " + c.metric().wireName(),
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
