package org.testbed.runfolder.jfr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.CsvTable;
import org.testbed.runfolder.stats.MedianInterval;

/**
 * The sidecar {@code jfr.csv} of a run with {@code --jfr}: one {@link JfrRecord} per sample (as
 * {@code samples.csv}), appended as each sample is taken.
 */
public final class JfrCsv {
    public static final String FILE = "jfr.csv";
    public static final CsvTable<JfrRecord> TABLE = new CsvTable<>(FILE, JfrRecord.COLUMNS, 5, JfrRecord::read);

    private JfrCsv() {
    }

    /** A run's records by step, each step's in the order taken. */
    public static Map<ResultRow.StepKey, List<JfrRecord>> byStep(List<JfrRecord> records) {
        Map<ResultRow.StepKey, List<JfrRecord>> byStep = new LinkedHashMap<>();
        for (JfrRecord r : records) {
            byStep.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
        return byStep;
    }

    /**
     * One record per step, in the order first measured: each figure the median of the step's samples,
     * the requests summed, the longest the longest of all, and the contended monitors and file those of
     * the sample whose pinned time is the median (the figure a virtual-thread question starts from).
     */
    public static List<JfrRecord> medians(List<JfrRecord> records) {
        List<JfrRecord> medians = new ArrayList<>();
        for (List<JfrRecord> step : byStep(records).values()) {
            JfrRecord first = step.get(0);
            List<JfrRecord> byPinned = new ArrayList<>(step);
            byPinned.sort((a, b) -> Double.compare(a.pinned().totalMs(), b.pinned().totalMs()));
            JfrRecord middle = byPinned.get((byPinned.size() - 1) / 2);
            medians.add(new JfrRecord(first.key(), step.size(), 0, step.stream().mapToLong(JfrRecord::requests).sum(),
                    median(step, JfrRecord::windowS), events(step, JfrRecord::pinned), events(step, JfrRecord::gcPauses),
                    events(step, JfrRecord::safepoints), median(step, JfrRecord::allocationMbPerS),
                    median(step, JfrRecord::allocationKbPerReq), middle.monitors(),
                    middle.file()));
        }
        return medians;
    }

    private static JfrRecord.Events events(List<JfrRecord> step, Function<JfrRecord, JfrRecord.Events> of) {
        return new JfrRecord.Events(median(step, r -> of.apply(r).count()), median(step, r -> of.apply(r).totalMs()),
                step.stream().mapToDouble(r -> of.apply(r).longestMs()).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN));
    }

    private static double median(List<JfrRecord> step, ToDoubleFunction<JfrRecord> of) {
        double[] values = step.stream().mapToDouble(of).filter(v -> !Double.isNaN(v)).toArray();
        return values.length == 0 ? Double.NaN : MedianInterval.median(values);
    }
}
