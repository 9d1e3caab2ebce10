package org.testbed.runfolder.timeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.HistogramLogReader;

/**
 * A sample's latencies second by second, read from its interval log ({@code raw/<variant>/<sample>.hlog})
 * with HdrHistogram's own {@link HistogramLogReader} and summarised to what a chart of the window
 * needs: per second the responses, a few percentiles and the counts of the {@link LatencyBuckets}.
 * Histograms of one tag that fall in the same second are added before anything is read from them,
 * so a log written by several writers sums exactly.
 *
 * @param startEpochMillis the log's start time: the window's start
 * @param seconds second {@code i} of the window at index {@code i}; a second the log has no interval for is empty
 */
public record SecondBySecond(long startEpochMillis, List<Second> seconds) {

    public SecondBySecond {
        seconds = List.copyOf(seconds);
    }

    /**
     * One second of the window.
     *
     * @param fromS its start, seconds from the window's start
     * @param toS its end (the last second of a window that is not whole ends early)
     * @param count responses (latencies recorded) in it
     * @param p50Ms median latency, ms; NaN when empty
     * @param p99Ms 99th percentile, ms; NaN when empty
     * @param maxMs the highest latency, ms; NaN when empty
     * @param buckets the count of each {@link LatencyBuckets} bucket: they add up to {@code count}
     */
    public record Second(double fromS, double toS, long count, double p50Ms, double p99Ms, double maxMs, long[] buckets) {

        /** Responses per second: {@code count} over the second's length. */
        public double rps() {
            return toS > fromS ? count / (toS - fromS) : 0;
        }

        static Second of(double fromS, double toS, Histogram h) {
            long[] buckets = new long[LatencyBuckets.COUNT];
            for (HistogramIterationValue v : h.recordedValues()) {
                buckets[LatencyBuckets.of(v.getValueIteratedTo())] += v.getCountAtValueIteratedTo();
            }
            long count = h.getTotalCount();
            return new Second(fromS, toS, count, count == 0 ? Double.NaN : h.getValueAtPercentile(50) / 1000.0,
                    count == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1000.0,
                    count == 0 ? Double.NaN : h.getMaxValue() / 1000.0, buckets);
        }
    }

    /**
     * The seconds of the histograms tagged {@code tag} in the log {@code hlog}; a null tag reads the
     * untagged ones (in a testbed log: every operation together).
     */
    public static SecondBySecond read(Path hlog, String tag) throws IOException {
        if (!Files.isRegularFile(hlog)) {
            throw new IOException("no interval log " + hlog);
        }
        TreeMap<Integer, Histogram> byIndex = new TreeMap<>();
        TreeMap<Integer, Double> ends = new TreeMap<>();
        long start;
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            List<EncodableHistogram> read = new ArrayList<>();
            for (EncodableHistogram e = next(reader, hlog); e != null; e = next(reader, hlog)) {
                if (Objects.equals(e.getTag(), tag)) {
                    read.add(e);
                }
            }
            // The start time is a header line: the reader knows it once it has read past it.
            start = Math.round(reader.getStartTimeSec() * 1000);
            for (EncodableHistogram e : read) {
                if (!(e instanceof Histogram h)) {
                    throw new IOException(hlog + " holds a histogram of doubles; a testbed log holds microseconds as integers");
                }
                int index = (int) Math.floor((h.getStartTimeStamp() - start) / 1000.0 + 1e-6);
                if (index < 0) {
                    throw new IOException(hlog + ": an interval starts before the log's start time");
                }
                byIndex.computeIfAbsent(index, i -> new Histogram(h.getNumberOfSignificantValueDigits())).add(h);
                ends.merge(index, (h.getEndTimeStamp() - start) / 1000.0, Math::max);
            }
        }
        List<Second> seconds = new ArrayList<>();
        int last = byIndex.isEmpty() ? -1 : byIndex.lastKey();
        for (int i = 0; i <= last; i++) {
            Histogram h = byIndex.getOrDefault(i, new Histogram(3));
            seconds.add(Second.of(i, Math.max(i, Math.min(i + 1, ends.getOrDefault(i, i + 1.0))), h));
        }
        return new SecondBySecond(start, seconds);
    }

    private static EncodableHistogram next(HistogramLogReader reader, Path hlog) throws IOException {
        try {
            return reader.nextIntervalHistogram();
        } catch (RuntimeException e) {
            throw new IOException("cannot read the interval log " + hlog + ": " + e.getMessage(), e);
        }
    }

    /**
     * GC per second of the window from the counters read during it: each difference of two readings
     * counts in the second the later one was taken (the pause ended before it), so a pause lands at
     * most one reading period late. Two readings that straddle the window's start or end count in
     * its first or last second (the pause may have been inside); two wholly outside count nowhere.
     *
     * @return per second {@code [collections, gc ms]}
     */
    public double[][] gcPerSecond(List<GcReading> readings) {
        double[][] perSecond = new double[seconds.size()][2];
        double end = seconds.isEmpty() ? 0 : seconds.get(seconds.size() - 1).toS();
        for (int k = 1; k < readings.size(); k++) {
            GcReading a = readings.get(k - 1);
            GcReading b = readings.get(k);
            double at = (b.atEpochMillis() - startEpochMillis) / 1000.0;
            if (at < 0 || (a.atEpochMillis() - startEpochMillis) / 1000.0 >= end) {
                continue;
            }
            int i = Math.min((int) Math.floor(at), seconds.size() - 1);
            perSecond[i][0] += b.collections() - a.collections();
            perSecond[i][1] += b.gcMillis() - a.gcMillis();
        }
        return perSecond;
    }
}
