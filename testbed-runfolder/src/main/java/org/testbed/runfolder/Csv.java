package org.testbed.runfolder;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RFC 4180 CSV through Jackson's CSV format: fields with a comma, quote or line break are quoted,
 * quotes doubled, and nothing else is quoted (strict quoting), so files stay as plain as the
 * columns allow. Every table of a run folder goes through here.
 */
public final class Csv {
    private static final CsvMapper MAPPER = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
            .build();
    private static final ObjectWriter LINE = MAPPER.writerFor(String[].class).with(CsvSchema.emptySchema());
    private static final ObjectReader RECORDS = MAPPER.readerFor(String[].class).with(CsvSchema.emptySchema());

    private Csv() {
    }

    /** Creates {@code file} with the header line {@code columns} only. */
    public static void create(Path file, List<String> columns) throws IOException {
        Files.writeString(file, line(columns), StandardCharsets.UTF_8);
    }

    /**
     * Appends one line in one write, so the file is complete after every line should a run be
     * stopped. A last line without its line feed (a write torn by a crash or a full disk) is cut off
     * first: the new line starts a line of its own instead of gluing onto half of another.
     */
    public static void append(Path file, List<String> fields) throws IOException {
        cutTornLine(file);
        Files.writeString(file, line(fields), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /** Truncates {@code file} after its last line feed, when its last byte is not one. */
    static void cutTornLine(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size == 0 || lastByte(channel, size) == '\n') {
                return;
            }
            long end = size - 1;
            while (end > 0 && lastByte(channel, end) != '\n') {
                end--;
            }
            channel.truncate(end);
        }
    }

    private static byte lastByte(FileChannel channel, long end) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        channel.read(one, end - 1);
        return one.get(0);
    }

    /**
     * {@code text} without a last line that lacks its line feed: every line this class writes ends
     * in one, so such a line is a torn write (a crash, {@code kill -9} mid-write, a full disk),
     * never a record.
     */
    public static String withoutTornLine(String text) {
        if (text.isEmpty() || text.endsWith("\n")) {
            return text;
        }
        return text.substring(0, text.lastIndexOf('\n') + 1);
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

    /** One line, with its line feed; a null field is an empty one. */
    public static String line(List<String> fields) {
        String[] cells = fields.stream().map(f -> f == null ? "" : f).toArray(String[]::new);
        try {
            return LINE.writeValueAsString(cells);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write a CSV line of " + fields.size() + " fields", e);
        }
    }

    /** Parses a whole CSV text into records of fields (blank lines are skipped). */
    public static List<List<String>> parse(String text) {
        List<List<String>> records = new ArrayList<>();
        try (MappingIterator<String[]> lines = RECORDS.readValues(text)) {
            while (lines.hasNextValue()) {
                records.add(List.of(lines.nextValue()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("not CSV: " + e.getMessage(), e);
        }
        return records;
    }

    /**
     * Header-keyed records of a CSV text; its header must start with {@code expected} (extra
     * trailing columns are tolerated, so that an older reader reads a newer file).
     *
     * @param origin what to name in the error, e.g. the file
     */
    public static List<Map<String, String>> records(String text, String origin, List<String> expected) throws IOException {
        List<List<String>> lines;
        try {
            lines = parse(text);
        } catch (UncheckedIOException e) {
            throw new IOException(origin + " is " + e.getMessage(), e);
        }
        if (lines.isEmpty()) {
            throw new IOException(origin + " is empty");
        }
        List<String> header = lines.get(0);
        if (header.size() < expected.size() || !header.subList(0, expected.size()).equals(expected)) {
            throw new IOException(origin + " does not have the expected columns " + expected + "; it has " + header);
        }
        List<Map<String, String>> records = new ArrayList<>();
        for (List<String> line : lines.subList(1, lines.size())) {
            Map<String, String> record = new HashMap<>();
            for (int i = 0; i < header.size() && i < line.size(); i++) {
                record.put(header.get(i), line.get(i));
            }
            records.add(record);
        }
        return records;
    }
}
