package org.testbed.runfolder.csv;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.testbed.runfolder.Csv;

/**
 * One table of a run folder besides results.csv ({@code steps.csv}, {@code samples.csv},
 * {@code counters.csv}): its columns and how a record becomes a line and is read back. Files are
 * complete after every append, and a rewrite goes through a move ({@link Csv#write}), so a run
 * stopped midway keeps what it measured.
 *
 * @param file the file name in the run folder
 * @param columns the header, in order
 * @param required the columns a file must start with to be read (older files may lack later columns)
 * @param fields a record's fields, in column order
 * @param parse a record from its fields by column name
 */
public record CsvTable<T>(String file, List<String> columns, List<String> required, Function<T, List<String>> fields,
                          Function<Map<String, String>, T> parse) {

    /** Creates {@code path} with the header only. */
    public void create(Path path) throws IOException {
        Csv.create(path, columns);
    }

    public void append(Path path, T record) throws IOException {
        Csv.append(path, fields.apply(record));
    }

    /** Replaces {@code path} with the header and {@code records}. */
    public void write(Path path, List<T> records) throws IOException {
        Csv.write(path, columns, records.stream().map(fields).toList());
    }

    /** The records, in file order; none when there is no such file (a run without this table). */
    public List<T> read(Path path) throws IOException {
        List<T> records = new ArrayList<>();
        if (!Files.isRegularFile(path)) {
            return records;
        }
        for (Map<String, String> v : Csv.records(Files.readString(path, StandardCharsets.UTF_8), path.toString(), required)) {
            records.add(parse.apply(v));
        }
        return records;
    }
}
