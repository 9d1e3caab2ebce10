package org.testbed.runfolder.capacity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testbed.runfolder.csv.CsvTable;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.Spread;

/**
 * {@code capacity.csv}: one {@link CapacityRecord} per search (variant × scenario × pass), appended
 * as each search ends.
 */
public final class CapacityCsv {
    public static final String FILE = "capacity.csv";
    public static final CsvTable<CapacityRecord> TABLE = new CsvTable<>(FILE, CapacityRecord.COLUMNS, 6,
            CapacityRecord::read);

    /** A capacity over the run's passes: the median and its spread, with each pass's search. */
    public record Summary(CapacityRecord first, Spread capacity, List<CapacityRecord> searches) {
    }

    private CapacityCsv() {
    }

    /** The searches grouped by variant, scenario, conditions and SLA, in the order first searched. */
    public static List<Summary> summaries(List<CapacityRecord> records) {
        Map<String, List<CapacityRecord>> byKey = new LinkedHashMap<>();
        for (CapacityRecord r : records) {
            byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
        List<Summary> summaries = new ArrayList<>();
        for (List<CapacityRecord> searches : byKey.values()) {
            double[] values = searches.stream().mapToDouble(CapacityRecord::capacityRps).toArray();
            summaries.add(new Summary(searches.get(0), MedianInterval.of(values), List.copyOf(searches)));
        }
        return summaries;
    }
}
