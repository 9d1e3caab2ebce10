package org.testbed.runfolder.compare;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.Column;
import org.testbed.runfolder.csv.CsvTable;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.figure.Figure;

/**
 * The operations of the steps two runs share, B against A ({@code operations.csv}): a step's
 * figures mix its kinds of request, so a write twice as slow at p99 under a mix of 80 % reads can
 * leave the step's own p99 within noise. Each operation's throughput, p50 and p99 get a ratio, an
 * interval and a verdict from its own samples, fork by fork, by the very rule of the step's figures
 * ({@link Judgement}), each side leaning on the spread between forks of the same operation in its
 * run's other steps of the scenario ({@link GroupPools}).
 *
 * <p>Only steps matched by {@link Comparison} are compared, and in them only the operations both
 * runs saw. A step of one operation on both sides (plaintext, json, delay: the operation is the
 * route) is left out: its operation's figures are the step's. What cannot be compared is said in
 * {@link #notes()}: a run without operations.csv (from before it, or measured by wrk), a step
 * without per-operation figures on a side, an operation one run saw and the other did not.
 *
 * @param steps the matched steps whose operations were compared, in the comparison's order
 * @param notes what could not be compared, and why
 */
public record OperationComparison(List<Step> steps, List<String> notes) {

    /** The file written beside compare.csv. */
    public static final String FILE = "compare-operations.csv";

    /**
     * The figures of an operation compared, each judged as its declaration says ({@link Figure}): its
     * throughput, its median (which in a closed loop follows the throughput, and gets its smallest
     * change) and its p99.
     */
    public static final List<Figure> FIGURES = List.of(Figure.RPS, Figure.P50, Figure.P99);

    /**
     * One figure of one operation of one matched step, B against A.
     *
     * @param a A's figure: the median of its samples of the operation
     * @param b B's figure
     */
    public record OperationChange(Comparison.Match match, String operation, Figure figure, double a, double b,
                                  Judgement judgement) {
    }

    /** A matched step's operations in both runs (in A's order), each with its {@link Figure}s in order. */
    public record Step(Comparison.Match match, List<String> operations, List<OperationChange> changes) {

        /** The change of {@code figure} of {@code operation}. */
        public OperationChange change(String operation, Figure figure) {
            return changes.stream().filter(c -> c.operation().equals(operation) && c.figure() == figure).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no " + operation + " " + figure.key() + " in "
                            + describe(match.key())));
        }
    }

    /** compare-operations.csv: one row per compared step, operation and figure. */
    public static final CsvTable<OperationChange> TABLE = new CsvTable<>(FILE, List.of(
            Column.text("variant", c -> c.match().key().variant()),
            Column.text("scenario", c -> c.match().key().scenario()),
            Column.text("level", c -> c.match().key().describe()),
            Column.text("operation", OperationChange::operation),
            Column.text("metric", c -> c.figure().key()),
            Column.number("a", c -> c.figure().format(c.a())),
            Column.number("b", c -> c.figure().format(c.b())),
            Column.decimal("ratio", 4, c -> c.judgement().ratio()),
            Column.decimal("ci_low", 4, c -> c.judgement().ciLow()),
            Column.decimal("ci_high", 4, c -> c.judgement().ciHigh()),
            Column.text("verdict", c -> c.judgement().verdict().wireName()),
            Column.decimal("confidence", 4, c -> c.judgement().confidence()),
            Column.count("n_a", c -> c.judgement().nA()),
            Column.count("n_b", c -> c.judgement().nB()),
            Column.decimal("noise_floor", 4, c -> c.judgement().noiseFloor())), 5, row -> {
                throw new UnsupportedOperationException(FILE + " is written, not read back");
            });

    /** The operations of {@code c}'s matched steps, from each run's operations.csv rows (empty: the run has none). */
    public static OperationComparison of(Comparison c, List<OperationRecord> a, List<OperationRecord> b) {
        List<String> notes = new ArrayList<>();
        for (String side : new String[] {"A", "B"}) {
            if ((side.equals("A") ? a : b).isEmpty()) {
                notes.add(side + " has no per-operation figures (no operations.csv: a run from before it, or measured"
                        + " by wrk): its steps are compared as a whole only");
            }
        }
        if (a.isEmpty() || b.isEmpty()) {
            return new OperationComparison(List.of(), notes);
        }
        Map<ResultRow.StepKey, Map<String, List<OperationRecord>>> byStepA = byStep(a);
        Map<ResultRow.StepKey, Map<String, List<OperationRecord>>> byStepB = byStep(b);
        Map<Figure, GroupPools> poolsA = pools(byStepA);
        Map<Figure, GroupPools> poolsB = pools(byStepB);
        List<Step> steps = new ArrayList<>();
        for (Comparison.Match m : c.matched()) {
            Map<String, List<OperationRecord>> opsA = byStepA.getOrDefault(m.key(), Map.of());
            Map<String, List<OperationRecord>> opsB = byStepB.getOrDefault(m.key(), Map.of());
            if (opsA.isEmpty() || opsB.isEmpty()) {
                notes.add(describe(m.key()) + ": no per-operation figures in "
                        + (opsA.isEmpty() && opsB.isEmpty() ? "A or B" : opsA.isEmpty() ? "A" : "B"));
                continue;
            }
            if (opsA.size() == 1 && opsA.keySet().equals(opsB.keySet())) {
                continue;
            }
            List<String> shared = new ArrayList<>();
            List<OperationChange> changes = new ArrayList<>();
            for (Map.Entry<String, List<OperationRecord>> e : opsA.entrySet()) {
                List<OperationRecord> rb = opsB.get(e.getKey());
                if (rb == null) {
                    notes.add(describe(m.key()) + ": " + e.getKey() + " in A only");
                    continue;
                }
                shared.add(e.getKey());
                String group = group(m.key(), e.getKey());
                for (Figure f : FIGURES) {
                    List<double[]> forksA = byFork(e.getValue(), f);
                    List<double[]> forksB = byFork(rb, f);
                    double va = median(e.getValue(), f);
                    double vb = median(rb, f);
                    changes.add(new OperationChange(m, e.getKey(), f, va, vb, Judgement.of(f.higherIsBetter(), f.minEffect(),
                            va, vb, forksA, forksB, poolsA.get(f).others(group, forksA), poolsB.get(f).others(group, forksB))));
                }
            }
            for (String op : opsB.keySet()) {
                if (!opsA.containsKey(op)) {
                    notes.add(describe(m.key()) + ": " + op + " in B only");
                }
            }
            steps.add(new Step(m, List.copyOf(shared), List.copyOf(changes)));
        }
        return new OperationComparison(List.copyOf(steps), List.copyOf(notes));
    }

    /** Every figure compared, step by step, operation by operation. */
    public List<OperationChange> changes() {
        return steps.stream().flatMap(s -> s.changes().stream()).toList();
    }

    /** The figures that changed beyond noise, in order. */
    public List<OperationChange> findings() {
        return changes().stream().filter(c -> c.judgement().verdict().changed()).toList();
    }

    /**
     * The console section: what changed beyond noise, one line each (or that nothing did), then one
     * line per operation with each figure's ratio B/A, interval and verdict (blank within noise, so
     * that what moved stands out), then the notes. Empty
     * when there is nothing to say (no step of several operations, nothing missing).
     */
    public String text() {
        StringBuilder out = new StringBuilder();
        if (!steps.isEmpty()) {
            List<OperationChange> findings = findings();
            out.append("\nper operation (B/A from each operation's own samples, fork by fork; verdicts as above):\n");
            if (findings.isEmpty()) {
                out.append(String.format(Locale.ROOT, "  nothing changed beyond noise (%d figures of %d operations)%n",
                        changes().size(), steps.stream().mapToInt(s -> s.operations().size()).sum()));
            } else {
                out.append("  changed beyond noise:\n");
                for (OperationChange f : findings) {
                    out.append("    ").append(finding(f)).append('\n');
                }
            }
            StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "  %-24s %-12s", "step", "operation"));
            for (Figure f : FIGURES) {
                header.append(String.format(Locale.ROOT, " %-7s %-16s %-8s", f.key() + " B/A", "interval", ""));
            }
            out.append(header.toString().stripTrailing()).append("   (verdict blank: within noise)\n");
            for (Step s : steps) {
                for (String op : s.operations()) {
                    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-24s %-12s", describe(s.match().key()), op));
                    for (Figure f : FIGURES) {
                        Judgement j = s.change(op, f).judgement();
                        line.append(String.format(Locale.ROOT, " %-7s %-16s %-8s", ratio(j.ratio()), interval(j),
                                j.verdict() == Verdict.WITHIN_NOISE ? "" : j.verdict().wireName()));
                    }
                    out.append(line.toString().stripTrailing()).append('\n');
                }
            }
        }
        for (String note : notes) {
            out.append(steps.isEmpty() && out.isEmpty() ? "\n" : "").append("per operation: ").append(note).append('\n');
        }
        return out.toString();
    }

    /**
     * One change beyond noise, e.g. {@code vertx mix c=64 PUT p99 2.000× [1.870, 2.140] slower (A 1.500 → B 3.000 ms p99;
     * 95%, n 6/6)}.
     */
    static String finding(OperationChange c) {
        Judgement j = c.judgement();
        return String.format(Locale.ROOT, "%s %s %s %.3f× %s %s (A %s → B %s; %.0f%%, n %d/%d)", describe(c.match().key()),
                c.operation(), c.figure().key(), j.ratio(), interval(j), j.verdict().wireName(), c.figure().show(c.a()),
                c.figure().show(c.b()), 100 * j.confidence(), j.nA(), j.nB());
    }

    private static String interval(Judgement j) {
        if (Double.isNaN(j.ciLow()) || Double.isNaN(j.ciHigh())) {
            return "-";
        }
        return String.format(Locale.ROOT, "[%.3f, %.3f]", j.ciLow(), j.ciHigh());
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.3f", r);
    }

    static String describe(ResultRow.StepKey k) {
        return k.variant() + " " + k.scenario() + " " + k.describe();
    }

    /** Each step's rows by operation, operations in the order first seen. */
    private static Map<ResultRow.StepKey, Map<String, List<OperationRecord>>> byStep(List<OperationRecord> records) {
        Map<ResultRow.StepKey, Map<String, List<OperationRecord>>> map = new LinkedHashMap<>();
        for (OperationRecord r : records) {
            if (!r.available()) {
                continue; // a wrk sample's "n/a (why)" row: the step has no figures per operation to compare
            }
            map.computeIfAbsent(r.key(), k -> new LinkedHashMap<>()).computeIfAbsent(r.operation(), k -> new ArrayList<>()).add(r);
        }
        return map;
    }

    /** One run's pools per figure: an operation pools with the same operation in its run's other steps of the scenario. */
    private static Map<Figure, GroupPools> pools(Map<ResultRow.StepKey, Map<String, List<OperationRecord>>> byStep) {
        Map<Figure, GroupPools> pools = new EnumMap<>(Figure.class);
        for (Figure f : FIGURES) {
            Map<String, List<List<double[]>>> groups = new LinkedHashMap<>();
            byStep.forEach((key, ops) -> ops.forEach((op, records) ->
                    groups.computeIfAbsent(group(key, op), g -> new ArrayList<>()).add(byFork(records, f))));
            pools.put(f, GroupPools.of(groups));
        }
        return pools;
    }

    private static String group(ResultRow.StepKey key, String operation) {
        return Comparison.group(key) + " " + operation;
    }

    private static List<double[]> byFork(List<OperationRecord> records, Figure f) {
        return ForkedSamples.byFork(records, OperationRecord::repeat, r -> r.figure(f));
    }

    private static double median(List<OperationRecord> records, Figure f) {
        return MedianInterval.median(records.stream().mapToDouble(r -> r.figure(f)).toArray());
    }
}
