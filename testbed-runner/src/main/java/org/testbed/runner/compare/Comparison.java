package org.testbed.runner.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testbed.runner.csv.ResultRow;

/**
 * Two runs side by side: rows matched by variant, scenario and level (concurrency for closed
 * steps, offered rate for open ones), with the ratios B/A of throughput, p99 latency and server
 * CPU per request. A ratio is undefined (NaN) when A's figure is zero or missing.
 */
public record Comparison(List<Match> matched, List<ResultRow.StepKey> onlyA, List<ResultRow.StepKey> onlyB) {

    /** One step present in both runs. */
    public record Match(ResultRow.StepKey key, ResultRow a, ResultRow b, double rpsRatio, double p99Ratio,
                        double cpuRatio, List<String> flags) {
    }

    public static Comparison of(List<ResultRow> a, List<ResultRow> b) {
        Map<ResultRow.StepKey, ResultRow> byKeyB = index(b);
        Map<ResultRow.StepKey, ResultRow> byKeyA = index(a);
        List<Match> matched = new ArrayList<>();
        List<ResultRow.StepKey> onlyA = new ArrayList<>();
        for (Map.Entry<ResultRow.StepKey, ResultRow> e : byKeyA.entrySet()) {
            ResultRow rb = byKeyB.get(e.getKey());
            if (rb == null) {
                onlyA.add(e.getKey());
                continue;
            }
            ResultRow ra = e.getValue();
            List<String> flags = new ArrayList<>();
            if (!ra.driver().equals(rb.driver())) {
                flags.add("different drivers: " + ra.driver() + " / " + rb.driver());
            }
            if (!ra.jdk().equals(rb.jdk())) {
                flags.add("JDK " + ra.jdk() + " / " + rb.jdk());
            }
            if (ra.errors() > 0 || rb.errors() > 0) {
                flags.add("errors " + ra.errors() + " / " + rb.errors());
            }
            matched.add(new Match(e.getKey(), ra, rb, ratio(rb.rps(), ra.rps()), ratio(rb.latP99Ms(), ra.latP99Ms()),
                    ratio(rb.cpuMsPerReq(), ra.cpuMsPerReq()), flags));
        }
        List<ResultRow.StepKey> onlyB = new ArrayList<>();
        for (ResultRow.StepKey key : byKeyB.keySet()) {
            if (!byKeyA.containsKey(key)) {
                onlyB.add(key);
            }
        }
        return new Comparison(matched, onlyA, onlyB);
    }

    /** {@code b / a}, or NaN when {@code a} is zero or either is missing. */
    public static double ratio(double b, double a) {
        if (Double.isNaN(a) || Double.isNaN(b) || a == 0) {
            return Double.NaN;
        }
        return b / a;
    }

    /** Rows by key, in file order; when a key repeats (a re-run step) the last row wins. */
    private static Map<ResultRow.StepKey, ResultRow> index(List<ResultRow> rows) {
        Map<ResultRow.StepKey, ResultRow> map = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            map.put(row.key(), row);
        }
        return map;
    }
}
