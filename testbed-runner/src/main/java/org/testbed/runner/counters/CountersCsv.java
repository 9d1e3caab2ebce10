package org.testbed.runner.counters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testbed.results.Csv;
import org.testbed.results.ResultRow;
import org.testbed.runner.stats.MedianInterval;

/**
 * The sidecar {@code counters.csv} of a run with {@code --counters}: one {@link CounterRecord} per
 * sample (as {@code samples.csv}), appended as each sample is taken.
 */
public final class CountersCsv {
    public static final String FILE = "counters.csv";

    private CountersCsv() {
    }

    public static void create(Path file) throws IOException {
        Csv.create(file, CounterRecord.COLUMNS);
    }

    public static void append(Path file, CounterRecord record) throws IOException {
        Csv.append(file, record.fields());
    }

    /** The records, or none when the run had no {@code --counters}. */
    public static List<CounterRecord> read(Path file) throws IOException {
        List<CounterRecord> records = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return records;
        }
        List<List<String>> lines = Csv.parse(Files.readString(file, StandardCharsets.UTF_8));
        List<String> required = List.of("variant", "scenario", "concurrency", "target_rps", "repeat", "requests");
        if (lines.isEmpty() || !lines.get(0).containsAll(required)) {
            throw new IOException(file + ": not a counters.csv (its header lacks " + required + ")");
        }
        List<String> header = lines.get(0);
        for (List<String> line : lines.subList(1, lines.size())) {
            Map<String, String> v = new HashMap<>();
            for (int i = 0; i < header.size() && i < line.size(); i++) {
                v.put(header.get(i), line.get(i));
            }
            records.add(CounterRecord.of(v));
        }
        return records;
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
            medians.add(new CounterRecord(first.variant(), first.scenario(), first.concurrency(), first.targetRps(),
                    first.conditions(),
                    step.size(), requests, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11],
                    first.unavailable()));
        }
        return medians;
    }

    private static double median(double[] values) {
        return values.length == 0 ? Double.NaN : MedianInterval.median(values);
    }
}
