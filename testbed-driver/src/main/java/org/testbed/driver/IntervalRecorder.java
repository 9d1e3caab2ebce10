package org.testbed.driver;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.HdrHistogram.Histogram;

/**
 * One event loop's latencies by second of the window, the total's and each operation's, for the
 * step's {@link IntervalLog}. The loop records into the histograms of the second it is in; when an
 * answer falls in a later second it hands that set over and takes a recycled one. The coordinator
 * merges what was handed over once a second ({@link #collect}) and recycles the set cleared.
 *
 * <p>Why not keep every second in the loop: a histogram of the headline's range and precision is
 * ~184 KB, so a 60 s journey step (7 histograms a second) on 4 loops would hold ~300 MB. This way a
 * loop holds two or three sets whatever the window's length, and its thread never copies or clears
 * a histogram: it swaps a reference once a second. The merged seconds are packed ({@link IntervalLog}).
 */
final class IntervalRecorder {

    /** One second of one loop: the total's histogram and each operation's, as the headline's (µs, 3 digits). */
    static final class Second {
        int index;
        final Histogram total = new Histogram(Measurements.HIGHEST_MICROS, 3);
        final Histogram[] operations;

        Second(int operations) {
            this.operations = new Histogram[operations];
            for (int i = 0; i < operations; i++) {
                this.operations[i] = new Histogram(Measurements.HIGHEST_MICROS, 3);
            }
        }

        void reset() {
            total.reset();
            for (Histogram h : operations) {
                h.reset();
            }
        }
    }

    private final int operations;
    /** Written by the loop's thread, read by the coordinator's: a queue passes the histograms' contents safely. */
    private final Queue<Second> handedOver = new ConcurrentLinkedQueue<>();
    private final Queue<Second> recycled = new ConcurrentLinkedQueue<>();
    /** The loop's own until it has stopped. */
    private Second current;
    /**
     * Every second before this one has been handed over (or had no answer): once the coordinator has
     * collected, its log holds them whole. Written by the loop once a second, read by the coordinator.
     */
    private volatile int handedOverBelow;

    IntervalRecorder(int operations) {
        this.operations = operations;
    }

    /** A latency in second {@code second} of the window, of operation {@code operation} (-1: none). */
    void record(int second, int operation, long micros) {
        Second s = current;
        if (s == null || second > s.index) {
            s = next(second);
        }
        s.total.recordValue(micros);
        if (operation >= 0) {
            s.operations[operation].recordValue(micros);
        }
    }

    private Second next(int second) {
        if (current != null) {
            handedOver.add(current);
        }
        if (second > handedOverBelow) {
            handedOverBelow = second;
        }
        Second s = recycled.poll();
        if (s == null) {
            s = new Second(operations); // the first seconds only: later ones come back recycled
        }
        s.index = second;
        current = s;
        return s;
    }

    /**
     * From the loop, when it finds itself in second {@code second} of the window: hands over the
     * second it was recording into, answered or not since. Without it a loop that has no answer in the
     * new second yet (a slow server, a low rate) would keep the last one, and the coordinator could not
     * tell that second whole.
     */
    void secondOver(int second) {
        if (current != null && current.index < second) {
            handedOver.add(current);
            current = null;
        }
        if (second > handedOverBelow) {
            handedOverBelow = second;
        }
    }

    /** Whether every second before {@code second} has been handed over; from any thread. */
    boolean handedOverBefore(int second) {
        return handedOverBelow >= second;
    }

    /** From the coordinator, while the loop runs: merges the seconds handed over into {@code log}. */
    void collect(IntervalLog.Builder log) {
        for (Second s = handedOver.poll(); s != null; s = handedOver.poll()) {
            log.add(s);
            s.reset();
            recycled.add(s);
        }
    }

    /** Once the loop has stopped: the seconds handed over and the one it was in. */
    void collectAll(IntervalLog.Builder log) {
        collect(log);
        if (current != null) {
            log.add(current);
            current = null;
        }
    }
}
