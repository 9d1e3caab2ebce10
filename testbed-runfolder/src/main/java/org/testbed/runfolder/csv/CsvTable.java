package org.testbed.runfolder.csv;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.EnvironmentFile;

/**
 * One table of a run folder ({@code results.csv}, {@code steps.csv}, {@code samples.csv},
 * {@code operations.csv}, {@code counters.csv}, {@code capacity.csv}): its columns, each defined once ({@link Column}), and
 * how a record is read back. Files are complete after every append, and a rewrite goes through a
 * move ({@link Csv#write}), so a run stopped midway keeps what it measured.
 *
 * @param file the file name in the run folder
 * @param columns the columns, in order
 * @param required how many leading columns a file must have to be read (older files may lack later columns)
 * @param parse a record from one line
 */
public record CsvTable<T>(String file, List<Column<T>> columns, int required, Function<CsvRow, T> parse) {

    public CsvTable {
        columns = List.copyOf(columns);
    }

    /** The header, in order. */
    public List<String> names() {
        return columns.stream().map(Column::name).toList();
    }

    /** A record's fields, in column order. */
    public List<String> fields(T record) {
        return columns.stream().map(c -> c.format(record)).toList();
    }

    /**
     * A record as the report's data carries it: one key per column, the column's own name, a number
     * as a JSON number (null when not known), a flag as a boolean, text as a string.
     */
    public ObjectNode json(T record) {
        ObjectNode n = EnvironmentFile.JSON.createObjectNode();
        for (Column<T> c : columns) {
            String v = c.format(record);
            switch (c.kind()) {
                case NUMBER -> {
                    double d = v.isBlank() ? Double.NaN : parseNumber(v);
                    if (Double.isNaN(d)) {
                        n.putNull(c.name());
                    } else {
                        n.put(c.name(), d);
                    }
                }
                case FLAG -> n.put(c.name(), Boolean.parseBoolean(v));
                case TEXT -> n.put(c.name(), v);
            }
        }
        return n;
    }

    private static double parseNumber(String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return Double.NaN; // "n/a": a counter perf could not count
        }
    }

    /** Creates {@code path} with the header only. */
    public void create(Path path) throws IOException {
        Csv.create(path, names());
    }

    public void append(Path path, T record) throws IOException {
        Csv.append(path, fields(record));
    }

    /** Replaces {@code path} with the header and {@code records}. */
    public void write(Path path, List<T> records) throws IOException {
        Csv.write(path, names(), records.stream().map(this::fields).toList());
    }

    /** The records of a file that must exist. */
    public List<T> readExisting(Path path) throws IOException {
        if (!Files.isRegularFile(path)) {
            throw new IOException(path + " does not exist");
        }
        return read(path);
    }

    /** The records, in file order; none when there is no such file (a run without this table). */
    public List<T> read(Path path) throws IOException {
        List<T> records = new ArrayList<>();
        if (!Files.isRegularFile(path)) {
            return records;
        }
        for (Map<String, String> v : Csv.records(Csv.withoutTornLine(Files.readString(path, StandardCharsets.UTF_8)), path.toString(),
                names().subList(0, required))) {
            try {
                records.add(parse.apply(new CsvRow(v, path.toString())));
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        return records;
    }
}
