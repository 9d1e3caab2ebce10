package org.testbed.runfolder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code results.csv}: docs/DESIGN.md's columns, exactly and in order, the same on every machine, so
 * that any two runs can be put side by side. Anything else the runner knows about a step goes to
 * the runner's sidecar {@code steps.csv}. The runner and the Gatling simulations both write it, so
 * that {@code report} and {@code compare} read either.
 */
public final class ResultsCsv {
    public static final String FILE = "results.csv";

    /**
     * docs/DESIGN.md, "Results". Do not reorder or rename; extras belong in steps.csv. The one column
     * added since the first schema, {@code conditions}, is last, and a file without it reads as
     * plain (what it measured): a row must say whether it was HTTPS, or two runs' rows would be
     * put side by side wrongly.
     */
    public static final List<String> COLUMNS = List.of("run_id", "started_at", "host", "arch", "cpu_model", "cpus",
            "jdk", "variant", "mode", "scenario", "driver", "concurrency", "target_rps", "duration_s", "requests",
            "errors", "rps", "lat_p50_ms", "lat_p90_ms", "lat_p99_ms", "lat_p999_ms", "lat_max_ms",
            "cpu_user_ms_per_req", "cpu_sys_ms_per_req", "server_rss_mb", "gc_count", "gc_ms", "conditions");

    private ResultsCsv() {
    }

    public static String header() {
        return Csv.line(COLUMNS);
    }

    /** Creates {@code file} with the header only. */
    public static void create(Path file) throws IOException {
        Csv.create(file, COLUMNS);
    }

    /** Appends a row (the file is complete after every step, should the run be stopped). */
    public static void append(Path file, ResultRow row) throws IOException {
        Csv.append(file, row.fields());
    }

    public static void write(Path file, List<ResultRow> rows) throws IOException {
        Csv.write(file, COLUMNS, rows.stream().map(ResultRow::fields).toList());
    }

    public static List<ResultRow> read(Path file) throws IOException {
        List<ResultRow> rows = new ArrayList<>();
        // The conditions column may be missing (a file from before it existed): the others are required.
        for (Map<String, String> record : Csv.records(Files.readString(file, StandardCharsets.UTF_8), file.toString(),
                COLUMNS.subList(0, COLUMNS.indexOf("conditions")))) {
            rows.add(ResultRow.of(record));
        }
        return rows;
    }
}
