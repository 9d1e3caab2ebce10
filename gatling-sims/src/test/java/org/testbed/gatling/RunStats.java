package org.testbed.gatling;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.testbed.scenario.LoadShape;

/**
 * The figures of one run, measured in the simulation itself: every request's latency goes into an
 * HdrHistogram (nanoseconds, 3 significant digits) for the whole run and for the window (level) its
 * start falls in, with OK/KO counts, and the same again for its operation (its Gatling request name:
 * the scenario library's {@link org.testbed.scenario.Operations} label, {@code GET} of the mix,
 * {@code create} of the journey). Recording is wait-free, so it costs the load generator next to
 * nothing. See README.md, "The results", for why the figures are taken here rather than from
 * Gatling's report.
 */
final class RunStats {
    private static final long UNSET = Long.MIN_VALUE;
    /** The window label of the whole run's figures. */
    static final String WHOLE_RUN = "all";

    private final LoadShape shape;
    private final List<LoadShape.Window> windows;
    private final List<String> operations;
    private final AtomicLong loadStart = new AtomicLong(UNSET);
    /** Wall-clock time of {@link #loadStart}, for the rows' {@code started_at}. */
    private volatile Instant loadStartedAt;
    private final Series all = new Series();
    private final Series[] perWindow;
    private final Series[] perOperation;
    /**
     * By window, then operation: made on a window's first request of that operation, so that an SLA
     * search of thousands of steps holds series only for those it reached.
     */
    private final AtomicReferenceArray<Series> perWindowOperation;

    /** {@code operations}: the workload's operation labels, which {@link #record}'s index points into. */
    RunStats(LoadShape shape, List<String> operations) {
        this.shape = shape;
        this.windows = shape.windows();
        this.operations = List.copyOf(operations);
        this.perWindow = new Series[windows.size()];
        for (int i = 0; i < perWindow.length; i++) {
            perWindow[i] = new Series();
        }
        this.perOperation = new Series[operations.size()];
        for (int i = 0; i < perOperation.length; i++) {
            perOperation[i] = new Series();
        }
        this.perWindowOperation = new AtomicReferenceArray<>(windows.size() * operations.size());
    }

    /** Called when a user starts: the first call starts the load's clock. */
    void userStarted() {
        if (loadStart.compareAndSet(UNSET, System.nanoTime())) {
            loadStartedAt = Instant.now();
        }
    }

    /** When the first user started (wall clock), or null before. */
    Instant loadStartedAt() {
        return loadStartedAt;
    }

    /** True until the shape's total duration has passed since the first user started. */
    boolean running() {
        long start = loadStart.get();
        return start == UNSET || System.nanoTime() - start < shape.total().toNanos();
    }

    /** Time since the load started (zero before). */
    Duration elapsed() {
        long start = loadStart.get();
        return start == UNSET ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Records one request of operation {@code operation} (an index into the labels; -1: of none, in
     * the totals only) that started at {@code startNanos} and ended at {@code endNanos} (System.nanoTime()).
     */
    void record(long startNanos, long endNanos, boolean ok, int operation) {
        long latency = Math.max(0, endNanos - startNanos);
        all.add(startNanos, endNanos, latency, ok);
        if (operation >= 0) {
            perOperation[operation].add(startNanos, endNanos, latency, ok);
        }
        long start = loadStart.get();
        if (start == UNSET) {
            return;
        }
        Duration offset = Duration.ofNanos(startNanos - start);
        for (int i = 0; i < perWindow.length; i++) {
            if (windows.get(i).contains(offset)) {
                perWindow[i].add(startNanos, endNanos, latency, ok);
                if (operation >= 0) {
                    windowOperation(i, operation).add(startNanos, endNanos, latency, ok);
                }
                break;
            }
        }
    }

    private Series windowOperation(int window, int operation) {
        int slot = window * operations.size() + operation;
        Series series = perWindowOperation.get(slot);
        if (series == null) {
            perWindowOperation.compareAndSet(slot, null, new Series());
            series = perWindowOperation.get(slot);
        }
        return series;
    }

    /** The whole run: rps over the time from the first request's start to the last one's end. */
    Row total() {
        return all.row(WHOLE_RUN, Double.NaN, Double.NaN, Duration.ZERO);
    }

    /**
     * The whole run by operation, those the run sent, in the workload's order: each over the whole
     * run's time (the total's), so that their requests and rps add up to the total's.
     */
    List<OperationRow> operationRows() {
        double seconds = total().seconds();
        List<OperationRow> rows = new ArrayList<>();
        for (int k = 0; k < perOperation.length; k++) {
            Row row = perOperation[k].row(WHOLE_RUN, Double.NaN, seconds, Duration.ZERO);
            if (row.requests() > 0) {
                rows.add(new OperationRow(operations.get(k), row));
            }
        }
        return rows;
    }

    /** Each window by operation, those each window saw: window by window, operations in the workload's order. */
    List<OperationRow> windowOperationRows() {
        List<OperationRow> rows = new ArrayList<>();
        for (int i = 0; i < windows.size(); i++) {
            LoadShape.Window w = windows.get(i);
            for (int k = 0; k < operations.size(); k++) {
                Series series = perWindowOperation.get(i * operations.size() + k);
                if (series != null) {
                    rows.add(new OperationRow(operations.get(k),
                            series.row(w.label(), w.load(), w.length().toNanos() / 1e9, w.start())));
                }
            }
        }
        return rows;
    }

    /** One row per window (level), rps over the window's nominal length. */
    List<Row> windowRows() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < perWindow.length; i++) {
            LoadShape.Window w = windows.get(i);
            rows.add(perWindow[i].row(w.label(), w.load(), w.length().toNanos() / 1e9, w.start()));
        }
        return rows;
    }

    /** The window whose end lies at least {@code grace} in the past, or -1: windows are judged once complete. */
    int lastCompleteWindow(Duration grace) {
        Duration elapsed = elapsed();
        int last = -1;
        for (int i = 0; i < windows.size(); i++) {
            LoadShape.Window w = windows.get(i);
            if (elapsed.compareTo(w.start().plus(w.length()).plus(grace)) >= 0) {
                last = i;
            }
        }
        return last;
    }

    Row windowRow(int i) {
        LoadShape.Window w = windows.get(i);
        return perWindow[i].row(w.label(), w.load(), w.length().toNanos() / 1e9, w.start());
    }

    /**
     * The figures of a window or of the whole run. Latencies in milliseconds.
     *
     * @param load users or arrivals per second offered in the window (NaN for the whole run)
     * @param offset when the window starts, from the start of the load (zero for the whole run)
     */
    record Row(String window, double load, long requests, long ok, long ko, double seconds, double rps,
               double p50, double p90, double p99, double p999, double max, Duration offset) {
        double errorPct() {
            return requests == 0 ? 0 : 100.0 * ko / requests;
        }
    }

    /**
     * One operation's figures in a window (or the whole run, window {@value #WHOLE_RUN}).
     *
     * @param operation the operation's label, its Gatling request name
     * @param figures its figures, as a window's: {@code figures.window()} says which window
     */
    record OperationRow(String operation, Row figures) {
    }

    private static final class Series {
        private final ConcurrentHistogram histogram = new ConcurrentHistogram(3);
        private final LongAdder ok = new LongAdder();
        private final LongAdder ko = new LongAdder();
        private final LongAccumulator firstStart = new LongAccumulator(Math::min, Long.MAX_VALUE);
        private final LongAccumulator lastEnd = new LongAccumulator(Math::max, Long.MIN_VALUE);

        void add(long start, long end, long latency, boolean success) {
            histogram.recordValue(latency);
            (success ? ok : ko).increment();
            firstStart.accumulate(start);
            lastEnd.accumulate(end);
        }

        Row row(String label, double load, double nominalSeconds, Duration offset) {
            Histogram h = histogram.copy();
            long okCount = ok.sum();
            long koCount = ko.sum();
            long n = okCount + koCount;
            double seconds = !Double.isNaN(nominalSeconds) ? nominalSeconds
                    : n == 0 ? 0 : (lastEnd.get() - firstStart.get()) / 1e9;
            double rps = seconds > 0 ? n / seconds : 0;
            return new Row(label, load, n, okCount, koCount, seconds, rps,
                    ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9), n == 0 ? 0 : h.getMaxValue() / 1e6, offset);
        }

        private static double ms(Histogram h, double percentile) {
            return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
        }
    }
}
