package org.testbed.driver;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.PackedHistogram;

/**
 * A step's latencies second by second, as HdrHistogram interval logs hold them: for each second of
 * the window one histogram of every operation's latencies (the headline's: from the intended start,
 * in microseconds) and one per operation, so that any stretch of a step, or the same operation over
 * many steps, can be added up later without averaging percentiles.
 *
 * <p>Interval {@code i} holds the answers that arrived in [start + i s, start + (i + 1) s), as
 * {@link LoadResult.Throughput#perSecond()} counts them, the last one shorter when the window is not
 * whole. Their latencies are those the headline counts: in the open model the window's own arrivals
 * (an answer to an arrival of the lead-in is left out), and an arrival of the window still without
 * an answer at its end counts in the last interval at its wait so far. Such an arrival still queued
 * in the driver had no request yet, hence no operation: the only latencies of the untagged
 * histograms that no tagged one has.
 *
 * <p>Seconds are kept packed ({@link PackedHistogram}: the same range and precision as the
 * headline's, so sums are exact, but memory for the values seen only), a few KB each.
 */
public final class IntervalLog {
    /** A driver that keeps no intervals (wrk). */
    public static final IntervalLog NONE = new IntervalLog(List.of(), 0, 0, List.of(), List.of(), List.of());
    /**
     * The tag of an open model's latencies from the request's write (the uncorrected figure: without
     * the wait for a connection), all operations; {@code sent/<operation>} for one operation.
     */
    public static final String SENT = "sent";
    /** The Interval_Max column in milliseconds: values are microseconds. */
    private static final double MAX_IN_MS = 1000.0;

    private final List<String> operations;
    private final long startEpochMillis;
    private final double seconds;
    private final List<Histogram> totals;
    private final List<List<Histogram>> byOperation;
    /** By second, the open model's latencies from the write: all operations', then each's (empty when closed). */
    private final List<List<Histogram>> sent;
    /** The window's errors by kind, second by second: not in the written log, which holds latencies only. */
    private final ErrorSeconds errors;

    private IntervalLog(List<String> operations, long startEpochMillis, double seconds, List<Histogram> totals,
                        List<List<Histogram>> byOperation, List<List<Histogram>> sent) {
        this(operations, startEpochMillis, seconds, totals, byOperation, sent, ErrorSeconds.NONE);
    }

    private IntervalLog(List<String> operations, long startEpochMillis, double seconds, List<Histogram> totals,
                        List<List<Histogram>> byOperation, List<List<Histogram>> sent, ErrorSeconds errors) {
        this.errors = errors;
        this.operations = List.copyOf(operations);
        this.startEpochMillis = startEpochMillis;
        this.seconds = seconds;
        this.totals = List.copyOf(totals);
        this.byOperation = List.copyOf(byOperation);
        this.sent = List.copyOf(sent);
    }

    /** The tag of the open model's latencies from the write of {@code operation}'s requests. */
    public static String sentTag(String operation) {
        return SENT + "/" + operation;
    }

    /** The operations' labels, each the tag of its histograms, in the workload's order. */
    public List<String> operations() {
        return operations;
    }

    /** This log with the window's errors by kind and second beside its latencies. */
    IntervalLog withErrors(ErrorSeconds counted) {
        return new IntervalLog(operations, startEpochMillis, seconds, totals, byOperation, sent, counted);
    }

    /** The window's errors by kind, second by second; {@link ErrorSeconds#NONE} when the driver did not count them so. */
    public ErrorSeconds errors() {
        return errors;
    }

    /** The window's length in seconds, the last interval's end. */
    public double seconds() {
        return seconds;
    }

    /** Responses (latencies recorded, failed ones too) in interval {@code i}. */
    public long count(int i) {
        return totals.get(i).getTotalCount();
    }

    /** The 99th percentile of interval {@code i}'s latencies, ms; NaN when it has none. */
    public double p99Ms(int i) {
        Histogram h = totals.get(i);
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1000.0;
    }

    /** How many intervals: one per second of the window, the last one maybe partial. */
    public int intervals() {
        return totals.size();
    }

    public boolean isEmpty() {
        return totals.isEmpty();
    }

    /** When the window began, milliseconds since the epoch: the log's start time. */
    public long startEpochMillis() {
        return startEpochMillis;
    }

    /**
     * Writes the log to {@code file} with HdrHistogram's {@link HistogramLogWriter}: {@code comments}
     * (one comment line each) and what the values are, the format version, the start time (also the
     * base time: interval timestamps are seconds from the window's start), the legend, then per
     * interval the untagged histogram of all operations and one tagged with each operation.
     */
    public void write(Path file, List<String> comments) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            write(out, comments);
        }
    }

    /** As {@link #write(Path, List)}, to a stream the caller closes. */
    public void write(OutputStream out, List<String> comments) throws IOException {
        PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8);
        HistogramLogWriter log = new HistogramLogWriter(print);
        for (String comment : comments) {
            comment.lines().forEach(log::outputComment);
        }
        log.outputComment("latency in microseconds, as the step's (from the intended start; a closed model's from the"
                + " request's write), Interval_Max in ms; one interval per second of the window; untagged: all"
                + " operations, Tag=<operation>: one of " + String.join(" ", operations)
                + (sent.isEmpty() ? "" : "; open model: Tag=" + SENT + " and Tag=" + sentTag("<operation>")
                        + ", the same from the request's write (without the wait for a connection)"));
        log.outputLogFormatVersion();
        log.outputStartTime(startEpochMillis);
        log.outputBaseTime(startEpochMillis);
        log.outputLegend();
        for (int i = 0; i < totals.size(); i++) {
            double from = i;
            double to = Math.min(i + 1, seconds);
            log.outputIntervalHistogram(from, to, totals.get(i), MAX_IN_MS);
            for (Histogram h : byOperation.get(i)) {
                log.outputIntervalHistogram(from, to, h, MAX_IN_MS);
            }
            if (!sent.isEmpty()) {
                for (Histogram h : sent.get(i)) {
                    log.outputIntervalHistogram(from, to, h, MAX_IN_MS);
                }
            }
        }
        print.flush();
        if (print.checkError()) {
            throw new IOException("the interval log could not be written");
        }
    }

    /**
     * Gathers a log one response at a time, for a driver that reads its responses back after the
     * step with the second of the window each arrived in (JMeter's results file), rather than
     * handing over whole seconds as testbed-nio's event loops do. Not thread-safe.
     */
    public static final class Collector {
        private final Builder builder;
        private final List<String> labels;

        /** {@code labels}: the workload's operations, in its order. */
        public Collector(List<String> labels) {
            this.labels = List.copyOf(labels);
            this.builder = new Builder(labels.size(), false); // closed models only (JMeter's): one latency
        }

        /** A response of operation {@code operation} (an index into the labels, or -1 for none) that arrived in second {@code second}. */
        public void record(int second, int operation, long micros) {
            Histogram[] set = builder.second(second);
            set[0].recordValue(micros);
            if (operation >= 0) {
                set[operation + 1].recordValue(micros);
            }
        }

        /** The log of a window of {@code seconds} from {@code startEpochMillis}, tagged with the operations {@code included}. */
        public IntervalLog build(long startEpochMillis, double seconds, int intervals, int[] included) {
            return builder.build(startEpochMillis, seconds, intervals, labels, included);
        }
    }

    /**
     * Gathers the seconds the loops hand over ({@link IntervalRecorder}), from the coordinator's
     * thread only, and makes the log of the window once it has ended (once: it gives its histograms away).
     */
    static final class Builder {
        private final int operations;
        private final boolean fromSend;
        /**
         * By second: the total's histogram, then each operation's; in the open model then the same
         * from the write (at {@code operations + 1} onwards).
         */
        private final List<Histogram[]> seconds = new ArrayList<>();

        Builder(int operations, boolean fromSend) {
            this.operations = operations;
            this.fromSend = fromSend;
        }

        void add(IntervalRecorder.Second second) {
            Histogram[] set = second(second.index);
            set[0].add(second.total);
            for (int i = 0; i < operations; i++) {
                set[i + 1].add(second.operations[i]);
            }
            if (fromSend) {
                set[operations + 1].add(second.sentTotal);
                for (int i = 0; i < operations; i++) {
                    set[operations + 2 + i].add(second.sentOperations[i]);
                }
            }
        }

        /** The latencies of every operation in second {@code index} so far (the total's histogram). */
        Histogram total(int index) {
            return second(index)[0];
        }

        private Histogram[] second(int index) {
            while (seconds.size() <= index) {
                Histogram[] set = new Histogram[(operations + 1) * (fromSend ? 2 : 1)];
                for (int i = 0; i < set.length; i++) {
                    set[i] = new PackedHistogram(Measurements.HIGHEST_MICROS, 3);
                }
                seconds.add(set);
            }
            return seconds.get(index);
        }

        /**
         * The log of a window of {@code seconds} that began at {@code startEpochMillis}, in
         * {@code intervals} intervals (a second after the last goes to the last, as the per-second
         * counts do), with the operations {@code included} (indexes into {@code labels}).
         */
        IntervalLog build(long startEpochMillis, double seconds, int intervals, List<String> labels, int[] included) {
            Histogram[] last = second(intervals - 1);
            while (this.seconds.size() > intervals) {
                Histogram[] later = this.seconds.remove(this.seconds.size() - 1);
                for (int i = 0; i < last.length; i++) {
                    last[i].add(later[i]);
                }
            }
            List<String> tags = new ArrayList<>();
            for (int op : included) {
                tags.add(labels.get(op));
            }
            List<Histogram> totals = new ArrayList<>();
            List<List<Histogram>> byOperation = new ArrayList<>();
            List<List<Histogram>> sent = new ArrayList<>();
            for (int i = 0; i < intervals; i++) {
                long from = startEpochMillis + i * 1000L;
                long to = startEpochMillis + Math.round(1000 * Math.min(i + 1, seconds));
                Histogram[] set = this.seconds.get(i);
                totals.add(stamped(set[0], from, to));
                List<Histogram> ops = new ArrayList<>();
                for (int k = 0; k < included.length; k++) {
                    Histogram h = stamped(set[included[k] + 1], from, to);
                    h.setTag(tags.get(k));
                    ops.add(h);
                }
                byOperation.add(ops);
                if (fromSend) {
                    List<Histogram> fromWrite = new ArrayList<>();
                    Histogram all = stamped(set[operations + 1], from, to);
                    all.setTag(SENT);
                    fromWrite.add(all);
                    for (int k = 0; k < included.length; k++) {
                        Histogram h = stamped(set[operations + 2 + included[k]], from, to);
                        h.setTag(sentTag(tags.get(k)));
                        fromWrite.add(h);
                    }
                    sent.add(fromWrite);
                }
            }
            return new IntervalLog(tags, startEpochMillis, seconds, totals, byOperation, sent);
        }

        private static Histogram stamped(Histogram h, long from, long to) {
            h.setStartTimeStamp(from);
            h.setEndTimeStamp(to);
            return h;
        }
    }
}
