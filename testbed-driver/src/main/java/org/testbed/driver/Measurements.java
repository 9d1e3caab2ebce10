package org.testbed.driver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.testbed.scenario.Operations;

/**
 * What the window counted: requests per second of the window, errors with their reasons, and three
 * HdrHistograms (microseconds, 3 significant digits) of each request: latency from its intended
 * start, latency from its actual send, and the lag between the two. Per operation ({@link Operations})
 * it counts requests and errors and keeps the latency from the intended start, and it records that
 * latency by second of the window for the interval log ({@link IntervalRecorder}). Each event loop
 * keeps its own, written by the loop's thread only; the coordinator reads the per-second counts and
 * collects the finished seconds' histograms while the loop runs (both are made safe for that) and
 * everything else once the loop has finished.
 */
final class Measurements {
    static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** Distinct failure reasons an event loop keeps; further ones are only counted. */
    private static final int MAX_REASONS = 8;

    /** From the intended start: what a user arriving on schedule waits (no coordinated omission). */
    final Histogram latency = new Histogram(HIGHEST_MICROS, 3);
    /** From the actual send: leaves out the time a request waited for the driver (uncorrected). */
    final Histogram uncorrected = new Histogram(HIGHEST_MICROS, 3);
    /** Actual send minus intended start: how far the driver fell behind its schedule. */
    final Histogram scheduleLag = new Histogram(HIGHEST_MICROS, 3);
    final Map<String, Long> failures = new LinkedHashMap<>();
    /** Per operation, as {@link #latency}: the requests of each kind apart (the headline mixes them). */
    final Histogram[] operationLatency;
    /** Per operation: requests counted as {@link #requests} counts them, so that they add up to it. */
    final long[] operationRequests;
    /** Per operation: of those, the failed ones. An error of no request (a failed connect) is in {@link #errors} only. */
    final long[] operationErrors;
    /** The latency by second of the window, the total's and each operation's. */
    final IntervalRecorder intervals;
    private final AtomicLongArray perSecond;
    /** Errors by second of the window, as {@link #perSecond}: for the live view ({@link SecondListener}). */
    private final AtomicLongArray errorsPerSecond;
    /** Errors by kind and second ({@code [kind][second]}), written by the loop's thread, read once it has finished. */
    private final long[][] errorKindsPerSecond;
    /** Until the window is set nothing is in it (a user's failed connect before it counts in its first second). */
    private long windowStart = Long.MAX_VALUE;
    /** When the loop is next due to hand the second it is in over ({@link #tick}). */
    private long nextSecondAt = Long.MAX_VALUE;
    long requests;
    long errors;
    /** TLS handshakes completed by this loop's connections for the step (before the window too: its users connect then). */
    long handshakes;
    /** Responses in the window that came gzip-compressed (and were inflated before they were checked). */
    long compressed;
    /** Open model: arrivals of the window without an answer when it closed ({@link #unanswered}). */
    long unanswered;
    /** Responses of the window whose bytes were counted, and those bytes: the requests as written, the responses as read. */
    long exchanges;
    long requestBytes;
    long responseBytes;

    /**
     * {@code seconds}: how many per-second windows to count in (the longest the window may last,
     * rounded up); {@code operations}: how many operations the workload has.
     */
    Measurements(int seconds, int operations, boolean open) {
        this.perSecond = new AtomicLongArray(Math.max(1, seconds));
        this.errorsPerSecond = new AtomicLongArray(Math.max(1, seconds));
        this.errorKindsPerSecond = new long[ErrorKind.values().length][Math.max(1, seconds)];
        this.operationLatency = new Histogram[operations];
        for (int i = 0; i < operations; i++) {
            operationLatency[i] = new Histogram(HIGHEST_MICROS, 3);
        }
        this.operationRequests = new long[operations];
        this.operationErrors = new long[operations];
        this.intervals = new IntervalRecorder(operations, open);
    }

    void windowStart(long start) {
        this.windowStart = start;
        this.nextSecondAt = start + SECOND;
    }

    /**
     * From the loop on each of its turns, at {@code now}: once a second of the window is over, its
     * latencies are handed to the coordinator ({@link IntervalRecorder#secondOver}), answered or not
     * since. A comparison per turn; the work is once a second.
     */
    void tick(long now) {
        if (now >= nextSecondAt) {
            int second = second(now);
            intervals.secondOver(second);
            nextSecondAt = windowStart + (second + 1L) * SECOND;
        }
    }

    /** How long the loop may wait before its next {@link #tick} has work (never negative). */
    long nanosUntilNextSecond(long now) {
        return Math.max(0, nextSecondAt - now);
    }

    /**
     * A response (or a failure in its place) at {@code now} to a request of operation
     * {@code operation} (-1: none) meant to start at {@code intended} and sent at {@code sent}.
     */
    void request(long intended, long sent, long now, int operation) {
        if (now < windowStart) {
            return; // answered during the open model's lead-in, before the window
        }
        requests++;
        if (operation >= 0) {
            operationRequests[operation]++;
        }
        int second = second(now);
        // Throughput is every answer of the window; latency is the window's own arrivals only. An
        // arrival of the lead-in answered in the window is the server's work, not the window's wait.
        if (intended >= windowStart) {
            recordLatency(now - intended, now - sent, operation, second);
            record(uncorrected, now - sent);
            record(scheduleLag, sent - intended);
        }
        // One writer (this loop's thread): a plain read and a release write are enough for the reader.
        perSecond.setRelease(second, perSecond.getPlain(second) + 1);
    }

    /** The per-second window {@code now} falls in (a response that raced the end goes to the last). */
    private int second(long now) {
        if (now < windowStart) {
            return 0;
        }
        return (int) Math.min(perSecond.length() - 1, (now - windowStart) / SECOND);
    }

    /**
     * The headline latency: the total's, the operation's, and the second's for the interval log, with
     * the latency from the request's write beside it there ({@code sentNanos}, -1: none).
     */
    private void recordLatency(long nanos, long sentNanos, int operation, int second) {
        long micros = micros(nanos);
        latency.recordValue(micros);
        if (operation >= 0) {
            operationLatency[operation].recordValue(micros);
        }
        intervals.record(second, operation, micros, sentNanos < 0 ? -1 : micros(sentNanos));
    }

    private static void record(Histogram histogram, long nanos) {
        histogram.recordValue(micros(nanos));
    }

    private static long micros(long nanos) {
        return Math.min(Math.max(0, nanos / 1000), HIGHEST_MICROS);
    }

    /**
     * Open model: an arrival of the window that had no answer when it closed (queued, connecting, or
     * in flight), which has waited longer than the slowest answer of the window ({@code longestNanos}).
     * Its latency is at least {@code end - intended}, and counted so, a lower bound: left out, a server
     * too slow to answer its window's arrivals would show the latencies of the few it did answer (and
     * none at all when the lead-in's backlog took the whole window). The arrivals of the window's last
     * moments, in flight for less than the slowest answer, are left out as before: they would land
     * anywhere in the distribution, and a lower bound would only pull it down.
     */
    void unanswered(long intended, long end, long longestNanos, int operation) {
        if (intended >= windowStart && intended < end && end - intended > longestNanos) {
            unanswered++;
            // No latency from its write: it may never have been written, and the uncorrected figure leaves it out too.
            recordLatency(end - intended, -1, operation, second(end));
        }
    }

    /** The slowest answer to an arrival of the window so far, in nanoseconds (0 when none). */
    long longestAnswerNanos() {
        return latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() * 1000;
    }

    void handshake() {
        handshakes++;
    }

    void compressed() {
        compressed++;
    }

    /** A whole response of the window: the bytes its request took on the wire, and its own (as sent, compressed or not). */
    void exchanged(int requestBytes, int responseBytes) {
        exchanges++;
        this.requestBytes += requestBytes;
        this.responseBytes += responseBytes;
    }

    /** A failure of no request (a failed connect), now. */
    void error(ErrorKind kind, String reason) {
        error(kind, reason, -1, System.nanoTime());
    }

    /** A failure of {@code kind} at {@code now} of a request of operation {@code operation} (-1: of none). */
    void error(ErrorKind kind, String reason, int operation, long now) {
        if (operation >= 0) {
            operationErrors[operation]++;
        }
        errors++;
        // In the second its request is counted in, for the live view.
        int second = second(now);
        errorsPerSecond.setRelease(second, errorsPerSecond.getPlain(second) + 1);
        errorKindsPerSecond[kind.ordinal()][second]++;
        if (failures.size() < MAX_REASONS || failures.containsKey(reason)) {
            failures.merge(reason, 1L, Long::sum);
        }
    }

    /** Requests counted in second {@code i} of the window so far; safe from any thread. */
    long completedInSecond(int i) {
        return perSecond.get(i);
    }

    /** Errors counted in second {@code i} of the window so far; safe from any thread. */
    long errorsInSecond(int i) {
        return errorsPerSecond.get(i);
    }

    /** The errors by kind of the first {@code seconds} windows, any later in the last, as {@link #perSecond(int)}. */
    ErrorSeconds errorSeconds(int seconds) {
        return ErrorSeconds.of(errorKindsPerSecond).fold(seconds);
    }

    /**
     * The counts of the first {@code seconds} windows. Any counted in a later one (a response that
     * raced an early stop) go to the last, so that the counts always add up to {@link #requests}.
     */
    long[] perSecond(int seconds) {
        long[] counts = new long[Math.max(1, Math.min(seconds, perSecond.length()))];
        for (int i = 0; i < perSecond.length(); i++) {
            counts[Math.min(i, counts.length - 1)] += perSecond.get(i);
        }
        return counts;
    }

    /**
     * Adds another loop's measurements to these (both with as many windows and operations), the
     * histograms bucket by bucket. Not the seconds of the interval log: the coordinator collects
     * those from each loop ({@link IntervalRecorder#collect}).
     */
    void add(Measurements other) {
        latency.add(other.latency);
        for (int i = 0; i < operationLatency.length; i++) {
            operationLatency[i].add(other.operationLatency[i]);
            operationRequests[i] += other.operationRequests[i];
            operationErrors[i] += other.operationErrors[i];
        }
        uncorrected.add(other.uncorrected);
        scheduleLag.add(other.scheduleLag);
        requests += other.requests;
        errors += other.errors;
        handshakes += other.handshakes;
        compressed += other.compressed;
        exchanges += other.exchanges;
        requestBytes += other.requestBytes;
        responseBytes += other.responseBytes;
        unanswered += other.unanswered;
        other.failures.forEach((k, v) -> failures.merge(k, v, Long::sum));
        for (int i = 0; i < perSecond.length(); i++) {
            perSecond.addAndGet(i, other.perSecond.get(i));
            errorsPerSecond.addAndGet(i, other.errorsPerSecond.get(i));
            for (int k = 0; k < errorKindsPerSecond.length; k++) {
                errorKindsPerSecond[k][i] += other.errorKindsPerSecond[k][i];
            }
        }
    }
}
