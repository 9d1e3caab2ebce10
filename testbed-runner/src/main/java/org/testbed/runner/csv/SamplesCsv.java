package org.testbed.runner.csv;

import org.testbed.results.Csv;
import org.testbed.results.ResultRow;
import org.testbed.results.ResultsCsv;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code samples.csv}: every measurement of every step ({@link SampleRecord}), in the order taken. */
public final class SamplesCsv {
    public static final String FILE = "samples.csv";

    private SamplesCsv() {
    }

    public static void create(Path file) throws IOException {
        Csv.create(file, SampleRecord.COLUMNS);
    }

    public static void append(Path file, SampleRecord record) throws IOException {
        Csv.append(file, record.fields());
    }

    /** The samples, or none when the run folder has no samples.csv (a run from before repeats existed). */
    public static List<SampleRecord> read(Path file) throws IOException {
        List<SampleRecord> samples = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return samples;
        }
        for (Map<String, String> v : Csv.records(Files.readString(file, StandardCharsets.UTF_8),
                file.toString(), SampleRecord.COLUMNS.subList(0, 5))) {
            samples.add(SampleRecord.of(v));
        }
        return samples;
    }

    /** The samples of each step, steps in the order first measured. */
    public static Map<ResultRow.StepKey, List<SampleRecord>> byStep(List<SampleRecord> samples) {
        Map<ResultRow.StepKey, List<SampleRecord>> map = new LinkedHashMap<>();
        for (SampleRecord s : samples) {
            map.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s);
        }
        return map;
    }
}
