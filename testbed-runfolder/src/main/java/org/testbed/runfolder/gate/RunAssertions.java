package org.testbed.runfolder.gate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.Saturation;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.stats.Spread;
import org.testbed.runfolder.figure.Figure;

/**
 * {@code --assert} over a run folder: every {@link Assertion} checked against every step of
 * results.csv it matches, with the step's interval from steps.csv where it keeps one. The steps of
 * a capacity search ({@code --sla}'s probes, which are meant to find where an objective breaks) are
 * not checked. An assertion that matches no step is one inconclusive check saying so.
 *
 * <p>{@code run --assert} calls this once the run folder is complete and its report written;
 * {@code report RUN --assert} on a run folder made earlier, so a run can be checked again against
 * other bounds. Both write {@link #FILE} into the run folder.
 */
public final class RunAssertions {
    /** The JUnit report, in the run folder. */
    public static final String FILE = "assert-junit.xml";

    private RunAssertions() {
    }

    /**
     * One assertion against one step.
     *
     * @param assertion what was asserted
     * @param step the step, or empty when the assertion matched none
     * @param outcome passed, failed or inconclusive
     * @param figure the figure as the console shows it, with its interval when it has one
     * @param message why, in one line
     * @param caveats what makes the step's figures suspect (not steady, warm-up cut short, saturated, not quiet)
     */
    public record Check(Assertion assertion, Optional<ResultRow.StepKey> step, Outcome outcome, String figure,
                        String message, List<String> caveats) {
        /** The step and the assertion, e.g. {@code vertx mix c=64 p99<=5ms}. */
        public String name() {
            return step.map(k -> k.variant() + " " + k.scenario() + " " + k.describe() + " ").orElse("") + assertion.label();
        }

        GateCase toCase() {
            return new GateCase(step.map(ResultRow.StepKey::variant).orElse("run"), name(), outcome, message,
                    String.join("\n", caveats));
        }
    }

    /** The scenarios of a run folder's results.csv, in file order. */
    public static Set<String> scenarios(Path runDir) throws IOException {
        return ResultsCsv.read(runDir.resolve(ResultsCsv.FILE)).stream().map(ResultRow::scenario)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /**
     * Checks that every scenario an assertion is limited to is one of {@code scenarios}; else an
     * {@link IllegalArgumentException} of one line naming them.
     */
    public static void requireScenarios(List<Assertion> assertions, Collection<String> scenarios) {
        for (Assertion a : assertions) {
            if (a.scenario().isPresent() && !scenarios.contains(a.scenario().get())) {
                throw new IllegalArgumentException("--assert '" + a.label() + "': no scenario '" + a.scenario().get()
                        + "' in this run; its scenarios: " + (scenarios.isEmpty() ? "none" : String.join(", ", scenarios)));
            }
        }
    }

    /** Every assertion against every step of the run folder it matches, assertion by assertion, steps in file order. */
    public static List<Check> check(Path runDir, List<Assertion> assertions) throws IOException {
        Map<ResultRow.StepKey, ResultRow> rows = new LinkedHashMap<>();
        for (ResultRow r : ResultsCsv.read(runDir.resolve(ResultsCsv.FILE))) {
            rows.put(r.key(), r); // a step measured again: the last row is the one that counts, as compare takes it
        }
        Map<ResultRow.StepKey, StepRecord> steps = new LinkedHashMap<>();
        for (StepRecord s : StepsCsv.TABLE.read(runDir.resolve(StepsCsv.FILE))) {
            steps.put(s.key(), s);
        }
        List<Check> checks = new ArrayList<>();
        for (Assertion a : assertions) {
            int matched = 0;
            int probes = 0;
            for (ResultRow row : rows.values()) {
                if (a.scenario().isPresent() && !a.scenario().get().equals(row.scenario())) {
                    continue;
                }
                StepRecord step = steps.get(row.key());
                if (step != null && !step.setup().sla().isEmpty()) {
                    probes++;
                    continue;
                }
                matched++;
                checks.add(check(a, row, step));
            }
            if (matched == 0) {
                checks.add(new Check(a, Optional.empty(), Outcome.INCONCLUSIVE, "-", "no step"
                        + a.scenario().map(s -> " of scenario " + s).orElse("") + " to check"
                        + (probes > 0 ? " (" + probes + " capacity search probe(s) are not checked)" : ""), List.of()));
            }
        }
        return checks;
    }

    /** One assertion against one step: the figure, its interval when steps.csv has one, and the decision. */
    static Check check(Assertion a, ResultRow row, StepRecord step) {
        double figure = Assertion.of(a.figure(), row, step);
        int samples = step == null ? 1 : step.repeats().count();
        Optional<Spread> spread = step == null ? Optional.empty() : step.spread(a.figure());
        boolean interval = samples > 1 && spread.isPresent() && spread.get().confidence() > 0
                && Double.isFinite(spread.get().ciLow()) && Double.isFinite(spread.get().ciHigh());
        double low = interval ? spread.get().ciLow() : Double.NaN;
        double high = interval ? spread.get().ciHigh() : Double.NaN;
        Outcome outcome = a.decide(figure, low, high);
        String name = a.figure().key();
        if (Double.isNaN(figure) && !interval) {
            return new Check(a, Optional.of(row.key()), outcome, "-", name + " was not measured in this step (its driver"
                    + " cannot see it), so " + a.label() + " cannot be checked", caveats(step));
        }
        String shown = a.show(figure);
        String basis;
        if (interval) {
            basis = ", interval " + a.showInterval(low, high) + " at "
                    + String.format(Locale.ROOT, "%.0f %%", 100 * spread.get().confidence()) + " over " + samples + " samples";
        } else if (samples <= 1) {
            basis = " (one sample)";
        } else if (a.figure() == Figure.ERRORS) {
            basis = " (the most any of its " + samples + " samples had)";
        } else {
            basis = " (the median of " + samples + " samples; steps.csv keeps no interval of " + name + ")";
        }
        String subject = name + " " + shown + basis;
        String message = switch (outcome) {
            case PASSED -> subject + ", meets " + a.label();
            case FAILED -> subject + ", fails " + a.label() + ": " + (interval ? "the whole interval is " : "")
                    + a.op().wrongSide() + " " + a.showBound();
            case INCONCLUSIVE -> subject + ", neither meets nor fails " + a.label() + ": the interval reaches both sides"
                    + " of " + a.showBound() + " (more forks narrow it)";
        };
        return new Check(a, Optional.of(row.key()), outcome, interval ? a.showWithInterval(figure, low, high) : shown,
                message, caveats(step));
    }

    /** What makes a step's figures suspect, from steps.csv: the same caveats compare shows beside a verdict. */
    private static List<String> caveats(StepRecord step) {
        List<String> caveats = new ArrayList<>();
        if (step == null) {
            return caveats;
        }
        int n = step.repeats().count();
        if (step.steadiness().warmupUnsettledSamples() > 0) {
            caveats.add("warm-up cut short in " + step.steadiness().warmupUnsettledSamples() + " of " + n + " samples");
        }
        if (step.steadiness().notSteadySamples() > 0) {
            caveats.add("NOT STEADY in " + step.steadiness().notSteadySamples() + " of " + n + " samples");
        }
        if (step.load().otherLoadPct() > SampleRecord.NOT_QUIET_PCT) {
            caveats.add(String.format(Locale.ROOT, "NOT QUIET (%.0f%% other load in the median sample)", step.load().otherLoadPct()));
        }
        if (step.load().saturated()) {
            caveats.add("SATURATED: the load side may have been the limit");
        }
        if (step.server().listenQueueOverflowed()) {
            caveats.add("listen queue overflowed in " + Math.max(1, step.server().listenOverflowSamples()) + " of " + n
                    + " samples: " + Saturation.CONNECT_RETRIES);
        }
        return caveats;
    }

    /** The checks as a JUnit suite named after the run folder. */
    public static GateSuite suite(Path runDir, List<Check> checks) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("run", runDir.toString());
        properties.put("assert", checks.stream().map(c -> c.assertion().label()).distinct().collect(Collectors.joining(" ")));
        Path name = runDir.toAbsolutePath().normalize().getFileName();
        return new GateSuite("testbed assert " + (name == null ? runDir : name), "assertion", properties,
                checks.stream().map(Check::toCase).toList());
    }

    /** Writes {@link #FILE} into the run folder. */
    public static Path write(Path runDir, List<Check> checks) throws IOException {
        return JUnitXml.write(runDir.resolve(FILE), suite(runDir, checks));
    }

    /**
     * The console's verdict table: one line per check ({@code PASS}, {@code FAIL} or
     * {@code INCONCLUSIVE}, the assertion, the step, the figure with its interval), then the reasons
     * of the checks that did not pass and the count.
     */
    public static String table(List<Check> checks) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-12s  %-18s  %-34s  %s%n", "verdict", "assertion", "step", "figure"));
        for (Check c : checks) {
            String step = c.step().map(k -> k.variant() + " " + k.scenario() + " " + k.describe()).orElse("-");
            out.append(String.format(Locale.ROOT, "%-12s  %-18s  %-34s  %s%s%n", c.outcome().word(), c.assertion().label(), step,
                    c.figure(), c.caveats().isEmpty() ? "" : "  (" + String.join("; ", c.caveats()) + ")"));
        }
        for (Check c : checks) {
            if (c.outcome() != Outcome.PASSED) {
                out.append(c.outcome().word()).append(' ').append(c.name()).append(": ").append(c.message()).append('\n');
            }
        }
        GateSuite counts = new GateSuite("", "", Map.of(), checks.stream().map(Check::toCase).toList());
        out.append("assertions: ").append(counts.summary()).append('\n');
        return out.toString();
    }
}
