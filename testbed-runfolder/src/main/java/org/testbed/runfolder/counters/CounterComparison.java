package org.testbed.runfolder.counters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.csv.ResultRow;

/**
 * The counters of two runs side by side: for each step both measured with {@code --counters}, the
 * ratio B/A of every per-request figure (medians of the samples), beside the ratio of CPU time
 * per request, so that a change in CPU reads as a change in instructions, in IPC, or in both.
 *
 * @param steps one entry per step with counters on both sides, in A's order
 */
public record CounterComparison(List<Step> steps) {

    /**
     * @param cpuRatio the step's CPU ms/request B/A from the main comparison (NaN when unknown)
     * @param ratios per figure column (see {@link CounterRecord#figureColumns()}), B/A; NaN where
     *               either side could not count it
     */
    public record Step(ResultRow.StepKey key, double cpuRatio, CounterRecord a, CounterRecord b, Map<String, Double> ratios) {

        /** E.g. "CPU 1.40× = instructions 1.10× at IPC 0.80×; context switches 2.00×; ..." (only what both counted). */
        public String explanation() {
            List<String> parts = new ArrayList<>();
            String head = "CPU " + times(cpuRatio);
            double instructions = ratios.get("instructions_per_req");
            double ipc = ratios.get("ipc");
            if (!Double.isNaN(instructions) && !Double.isNaN(ipc)) {
                head += " = instructions " + times(instructions) + " at IPC " + times(ipc);
            }
            parts.add(head);
            for (Map.Entry<String, Double> e : ratios.entrySet()) {
                if (!Double.isNaN(e.getValue()) && !e.getKey().equals("instructions_per_req") && !e.getKey().equals("ipc")) {
                    parts.add(label(e.getKey()) + " " + times(e.getValue()));
                }
            }
            return String.join("; ", parts);
        }
    }

    /** The comparison of two run folders; empty when either has no counters.csv. */
    public static CounterComparison load(Path dirA, Path dirB, Map<ResultRow.StepKey, Double> cpuRatios) throws IOException {
        return of(CountersCsv.TABLE.read(dirA.resolve(CountersCsv.FILE)), CountersCsv.TABLE.read(dirB.resolve(CountersCsv.FILE)), cpuRatios);
    }

    /** Matches the steps of two runs' counter samples by variant, scenario and level. */
    public static CounterComparison of(List<CounterRecord> samplesA, List<CounterRecord> samplesB,
                                       Map<ResultRow.StepKey, Double> cpuRatios) {
        Map<ResultRow.StepKey, CounterRecord> b = new LinkedHashMap<>();
        CountersCsv.medians(samplesB).forEach(r -> b.put(r.key(), r));
        List<Step> steps = new ArrayList<>();
        for (CounterRecord a : CountersCsv.medians(samplesA)) {
            CounterRecord other = b.get(a.key());
            if (other == null) {
                continue;
            }
            Map<String, Double> ratios = new LinkedHashMap<>();
            double[] fa = a.figures();
            double[] fb = other.figures();
            for (int i = 0; i < fa.length; i++) {
                ratios.put(CounterRecord.figureColumns().get(i), fa[i] > 0 ? fb[i] / fa[i] : Double.NaN);
            }
            steps.add(new Step(a.key(), cpuRatios.getOrDefault(a.key(), Double.NaN), a, other, ratios));
        }
        return new CounterComparison(steps);
    }

    /** The console lines, or nothing when no step has counters on both sides. */
    public String text() {
        if (steps.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nserver counters per request, B/A (perf stat, medians of the samples):\n");
        for (Step s : steps) {
            out.append(String.format(Locale.ROOT, "  %s %s %s: %s%n", s.key().variant(), s.key().scenario(), s.key().level(),
                    s.explanation()));
        }
        return out.toString();
    }

    static String label(String column) {
        return column.replace("_per_req", "").replace("_ms", " ms").replace('_', ' ');
    }

    private static String times(double ratio) {
        return Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2f×", ratio);
    }
}
