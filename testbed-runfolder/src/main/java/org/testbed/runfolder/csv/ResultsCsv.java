package org.testbed.runfolder.csv;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code results.csv}: docs/DESIGN.md's columns ({@link ResultRow#COLUMNS}), exactly and in order,
 * the same on every machine, so that any two runs can be put side by side. Anything else the runner
 * knows about a step goes to the runner's sidecar {@code steps.csv}. The runner and the Gatling
 * simulations both write it, so that {@code report} and {@code compare} read either.
 */
public final class ResultsCsv {
    public static final String FILE = "results.csv";
    /** The conditions column may be missing (a file from before it existed): the others are required. */
    public static final CsvTable<ResultRow> TABLE = new CsvTable<>(FILE, ResultRow.COLUMNS, ResultRow.COLUMNS.size() - 1,
            ResultRow::read);
    /** The header, in order. */
    public static final List<String> COLUMNS = TABLE.names();

    private ResultsCsv() {
    }

    /** Creates {@code file} with the header only. */
    public static void create(Path file) throws IOException {
        TABLE.create(file);
    }

    /** Appends a row (the file is complete after every step, should the run be stopped). */
    public static void append(Path file, ResultRow row) throws IOException {
        TABLE.append(file, row);
    }

    public static void write(Path file, List<ResultRow> rows) throws IOException {
        TABLE.write(file, rows);
    }

    /** The rows of a file that must exist (a run folder always has one). */
    public static List<ResultRow> read(Path file) throws IOException {
        return TABLE.readExisting(file);
    }
}
