package org.testbed.runner.csv;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled. */
public final class Csv {
    private Csv() {
    }

    /** Creates {@code file} with the header line {@code columns} only. */
    public static void create(Path file, List<String> columns) throws IOException {
        Files.writeString(file, line(columns), StandardCharsets.UTF_8);
    }

    /** Appends one line (the file is complete after every line, should a run be stopped). */
    public static void append(Path file, List<String> fields) throws IOException {
        Files.writeString(file, line(fields), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /** Replaces {@code file} with the header {@code columns} and {@code rows}, through {@link #replace}. */
    public static void write(Path file, List<String> columns, List<List<String>> rows) throws IOException {
        StringBuilder out = new StringBuilder(line(columns));
        for (List<String> row : rows) {
            out.append(line(row));
        }
        replace(file, out);
    }

    /**
     * Replaces {@code file} with {@code text} through a temporary file and a move, so that a run
     * stopped mid-write leaves the previous complete file rather than half of the new one.
     */
    public static void replace(Path file, CharSequence text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static String line(List<String> fields) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            String f = fields.get(i) == null ? "" : fields.get(i);
            if (f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || f.indexOf('\n') >= 0 || f.indexOf('\r') >= 0) {
                out.append('"').append(f.replace("\"", "\"\"")).append('"');
            } else {
                out.append(f);
            }
        }
        return out.append('\n').toString();
    }

    /** Parses a whole CSV text into records of fields. */
    public static List<List<String>> parse(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
                continue;
            }
            switch (c) {
                case '"' -> {
                    quoted = true;
                    any = true;
                }
                case ',' -> {
                    record.add(field.toString());
                    field.setLength(0);
                    any = true;
                }
                case '\r' -> {
                }
                case '\n' -> {
                    if (any || field.length() > 0 || !record.isEmpty()) {
                        record.add(field.toString());
                        records.add(record);
                    }
                    record = new ArrayList<>();
                    field.setLength(0);
                    any = false;
                }
                default -> {
                    field.append(c);
                    any = true;
                }
            }
        }
        if (any || field.length() > 0 || !record.isEmpty()) {
            record.add(field.toString());
            records.add(record);
        }
        return records;
    }
}
