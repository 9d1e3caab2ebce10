package org.testbed.runfolder.counters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.CsvTable;
import org.testbed.runfolder.stats.MedianInterval;


/**
 * The sidecar {@code counters.csv} of a run with {@code --counters}: one {@link CounterRecord} per
 * sample (as {@code samples.csv}), appended as each sample is taken.
 */
public final class CountersCsv {
    public static final String FILE = "counters.csv";
    public static final CsvTable<CounterRecord> TABLE = new CsvTable<>(FILE, CounterRecord.COLUMNS, 4,
            CounterRecord::read);

    private CountersCsv() {
    }

    /**
     * One record per step, steps in the order first measured: the median of each figure over the
     * step's samples that have it (a figure no sample has stays n/a), the requests summed, and
     * {@code repeat} the number of samples.
     */
    public static List<CounterRecord> medians(List<CounterRecord> samples) {
        Map<ResultRow.StepKey, List<CounterRecord>> byStep = new LinkedHashMap<>();
        for (CounterRecord r : samples) {
            byStep.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
        List<CounterRecord> medians = new ArrayList<>();
        for (List<CounterRecord> step : byStep.values()) {
            CounterRecord first = step.get(0);
            double[] m = new double[CounterRecord.figureColumns().size()];
            for (int i = 0; i < m.length; i++) {
                int column = i;
                m[i] = median(step.stream().mapToDouble(r -> r.figures()[column]).filter(v -> !Double.isNaN(v)).toArray());
            }
            long requests = step.stream().mapToLong(CounterRecord::requests).sum();
            medians.add(new CounterRecord(first.key(), step.size(), requests, CounterRecord.PerRequest.of(m),
                    first.unavailable()));
        }
        return medians;
    }

    private static double median(double[] values) {
        return values.length == 0 ? Double.NaN : MedianInterval.median(values);
    }
}
