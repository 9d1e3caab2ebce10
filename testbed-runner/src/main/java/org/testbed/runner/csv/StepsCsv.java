package org.testbed.runner.csv;

import org.testbed.results.Csv;
import org.testbed.results.ResultsCsv;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The sidecar {@code steps.csv}: one {@link StepRecord} per row of results.csv. */
public final class StepsCsv {
    public static final String FILE = "steps.csv";

    private StepsCsv() {
    }

    public static void create(Path file) throws IOException {
        Csv.create(file, StepRecord.COLUMNS);
    }

    public static void append(Path file, StepRecord record) throws IOException {
        Csv.append(file, record.fields());
    }

    public static void write(Path file, List<StepRecord> records) throws IOException {
        Csv.write(file, StepRecord.COLUMNS, records.stream().map(StepRecord::fields).toList());
    }

    /** The records, or none when the run folder has no steps.csv (e.g. a results.csv from elsewhere). */
    public static List<StepRecord> read(Path file) throws IOException {
        List<StepRecord> records = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return records;
        }
        // Only the key columns are required: a steps.csv from an older runner lacks some others (read as 0).
        for (Map<String, String> v : Csv.records(Files.readString(file, StandardCharsets.UTF_8),
                file.toString(), StepRecord.COLUMNS.subList(0, 4))) {
            records.add(StepRecord.of(v));
        }
        return records;
    }
}
