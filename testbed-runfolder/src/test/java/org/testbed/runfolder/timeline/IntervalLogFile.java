package org.testbed.runfolder.timeline;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes an interval log as the load driver does (HdrHistogram's {@link HistogramLogWriter}, start
 * and base time the window's start, timestamps in seconds from it, microseconds): per interval the
 * histograms added with {@link #interval}, in order.
 */
public final class IntervalLogFile {
    public static final long START_MS = 1_767_225_600_000L;
    private final List<Entry> entries = new ArrayList<>();

    private record Entry(double fromS, double toS, String tag, long[] micros) {
    }

    /** A histogram of {@code micros} for [fromS, toS) of the window, tagged (null: untagged). */
    public IntervalLogFile interval(double fromS, double toS, String tag, long... micros) {
        entries.add(new Entry(fromS, toS, tag, micros));
        return this;
    }

    /** {@code count} latencies of {@code micros} each. */
    public static long[] times(int count, long micros) {
        long[] values = new long[count];
        Arrays.fill(values, micros);
        return values;
    }

    public static long[] concat(long[]... parts) {
        return Arrays.stream(parts).flatMapToLong(Arrays::stream).toArray();
    }

    public Path write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8);
            HistogramLogWriter log = new HistogramLogWriter(print);
            log.outputComment("a test log, latencies in microseconds");
            log.outputLogFormatVersion();
            log.outputStartTime(START_MS);
            log.outputBaseTime(START_MS);
            log.outputLegend();
            for (Entry e : entries) {
                Histogram h = new Histogram(3_600_000_000L, 3);
                for (long v : e.micros()) {
                    h.recordValue(v);
                }
                h.setStartTimeStamp(START_MS + Math.round(e.fromS() * 1000));
                h.setEndTimeStamp(START_MS + Math.round(e.toS() * 1000));
                h.setTag(e.tag());
                log.outputIntervalHistogram(e.fromS(), e.toS(), h, 1000.0);
            }
            print.flush();
        }
        return file;
    }
}
