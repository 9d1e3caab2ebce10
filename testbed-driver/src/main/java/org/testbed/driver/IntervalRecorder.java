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

    /**
     * One second of one loop: the total's histogram and each operation's, as the headline's (µs, 3
     * digits); in the open model the same again for the latency from the request's write, which
     * leaves out the time an arrival waited for a connection ({@code sent}, empty when closed).
     */
    static final class Second {
        int index;
        final Histogram total = histogram();
        final Histogram[] operations;
        final Histogram sentTotal;
        final Histogram[] sentOperations;

        Second(int operations, boolean fromSend) {
            this.operations = histograms(operations);
            this.sentTotal = fromSend ? histogram() : null;
            this.sentOperations = histograms(fromSend ? operations : 0);
        }

        private static Histogram histogram() {
            return new Histogram(Measurements.HIGHEST_MICROS, 3);
        }

        private static Histogram[] histograms(int n) {
            Histogram[] hs = new Histogram[n];
            for (int i = 0; i < n; i++) {
                hs[i] = histogram();
            }
            return hs;
        }

        void reset() {
            total.reset();
            for (Histogram h : operations) {
                h.reset();
            }
            if (sentTotal != null) {
                sentTotal.reset();
            }
            for (Histogram h : sentOperations) {
                h.reset();
            }
        }
    }

    private final int operations;
    /** Open model: also the latency from the request's write (in a closed model it is the same latency). */
    private final boolean fromSend;
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

    IntervalRecorder(int operations, boolean fromSend) {
        this.operations = operations;
        this.fromSend = fromSend;
    }

    /**
     * A latency in second {@code second} of the window, of operation {@code operation} (-1: none):
     * {@code micros} from the intended start, {@code sentMicros} from the request's write (kept in
     * the open model only; -1 for an arrival censored at the window's end, never written perhaps).
     */
    void record(int second, int operation, long micros, long sentMicros) {
        Second s = current;
        if (s == null || second > s.index) {
            s = next(second);
        }
        s.total.recordValue(micros);
        if (operation >= 0) {
            s.operations[operation].recordValue(micros);
        }
        if (fromSend && sentMicros >= 0) {
            s.sentTotal.recordValue(sentMicros);
            if (operation >= 0) {
                s.sentOperations[operation].recordValue(sentMicros);
            }
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
            s = new Second(operations, fromSend); // the first seconds only: later ones come back recycled
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
