package org.testbed.jmeter;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the per-sample results JMeter writes as CSV ({@code -l results.jtl} with
 * {@code jmeter.save.saveservice.output_format=csv}): a header line naming the fields, then one
 * record per sample. Fields are found by name, so the order JMeter writes them in does not matter.
 * A field holding a comma, a quote or a line break is quoted (an assertion's failure message spans
 * several lines), as in RFC 4180.
 */
final class JtlReader {
    /** The fields a step needs; the properties {@link JMeterDriver} passes make JMeter write them. */
    static final List<String> FIELDS = List.of("timeStamp", "elapsed", "label", "responseCode", "success", "failureMessage");

    /**
     * One sample.
     *
     * @param startMillis when it started, epoch milliseconds ({@code sampleresult.timestamp.start=true})
     * @param elapsedMillis its response time: JMeter measures whole milliseconds
     * @param label the sampler's name: the operation
     * @param responseCode the HTTP status, or JMeter's text for a failure without one
     * @param success whether every assertion passed
     * @param failureMessage the first failed assertion's message, or empty
     * @param engine the engine that took it ({@link JMeterDriver#ENGINE}), or empty when the results do not say
     */
    record Sample(long startMillis, long elapsedMillis, String label, String responseCode, boolean success,
                  String failureMessage, String engine) {
        long endMillis() {
            return startMillis + elapsedMillis;
        }
    }

    private JtlReader() {
    }

    /** Calls {@code each} with every sample of {@code file}, in file order. */
    static void read(Path file, Consumer<Sample> each) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            List<String> header = record(in);
            if (header == null) {
                throw new IOException(file + " is empty: JMeter wrote no results");
            }
            int[] at = new int[FIELDS.size()];
            for (int i = 0; i < at.length; i++) {
                at[i] = header.indexOf(FIELDS.get(i));
                if (at[i] < 0) {
                    throw new IOException(file + " has no " + FIELDS.get(i) + " field (its header: " + header + ")");
                }
            }
            int engine = header.indexOf(JMeterDriver.ENGINE);
            long line = 1;
            for (List<String> r = record(in); r != null; r = record(in)) {
                line++;
                if (r.size() != header.size()) {
                    throw new IOException(file + ": record " + line + " has " + r.size() + " fields, the header "
                            + header.size());
                }
                try {
                    each.accept(new Sample(Long.parseLong(r.get(at[0])), Long.parseLong(r.get(at[1])), r.get(at[2]),
                            r.get(at[3]), Boolean.parseBoolean(r.get(at[4])), r.get(at[5]), engine < 0 ? "" : r.get(engine)));
                } catch (NumberFormatException e) {
                    throw new IOException(file + ": record " + line + " has no time in ms: " + r, e);
                }
            }
        }
    }

    /** The next record's fields, or null at the end of the input. */
    static List<String> record(BufferedReader in) throws IOException {
        int c = in.read();
        if (c < 0) {
            return null;
        }
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        while (true) {
            if (quoted) {
                if (c < 0) {
                    throw new IOException("a quoted field is not closed before the end of the results");
                }
                if (c == '"') {
                    in.mark(1);
                    int next = in.read();
                    if (next == '"') {
                        field.append('"');
                    } else {
                        quoted = false;
                        in.reset();
                    }
                } else {
                    field.append((char) c);
                }
            } else if (c == '"' && field.isEmpty()) {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else if (c == '\n' || c < 0) {
                fields.add(field.toString());
                return fields;
            } else if (c != '\r') {
                field.append((char) c);
            }
            c = in.read();
        }
    }
}
