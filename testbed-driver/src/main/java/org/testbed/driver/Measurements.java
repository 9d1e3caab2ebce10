package org.testbed.driver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;

/**
 * What the window counted: requests per second of the window, errors with their reasons, and three
 * HdrHistograms (microseconds, 3 significant digits) of each request: latency from its intended
 * start, latency from its actual send, and the lag between the two. Each event loop keeps its own,
 * written by the loop's thread only; the coordinator reads the per-second counts while the loop
 * runs (they are atomic for that) and everything else once the loop has finished.
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
    private final AtomicLongArray perSecond;
    private long windowStart;
    long requests;
    long errors;
    /** TLS handshakes completed by this loop's connections for the step (before the window too: its users connect then). */
    long handshakes;
    /** Responses in the window that came gzip-compressed (and were inflated before they were checked). */
    long compressed;
    /** Open model: arrivals of the window without an answer when it closed ({@link #unanswered}). */
    long unanswered;

    /** {@code seconds}: how many per-second windows to count in (the longest the window may last, rounded up). */
    Measurements(int seconds) {
        this.perSecond = new AtomicLongArray(Math.max(1, seconds));
    }

    void windowStart(long start) {
        this.windowStart = start;
    }

    /**
     * A response (or a failure in its place) at {@code now} to a request meant to start at
     * {@code intended} and sent at {@code sent}.
     */
    void request(long intended, long sent, long now) {
        if (now < windowStart) {
            return; // answered during the open model's lead-in, before the window
        }
        requests++;
        // Throughput is every answer of the window; latency is the window's own arrivals only. An
        // arrival of the lead-in answered in the window is the server's work, not the window's wait.
        if (intended >= windowStart) {
            record(latency, now - intended);
            record(uncorrected, now - sent);
            record(scheduleLag, sent - intended);
        }
        int second = (int) Math.min(perSecond.length() - 1, Math.max(0, (now - windowStart) / SECOND));
        // One writer (this loop's thread): a plain read and a release write are enough for the reader.
        perSecond.setRelease(second, perSecond.getPlain(second) + 1);
    }

    private static void record(Histogram histogram, long nanos) {
        histogram.recordValue(Math.min(Math.max(0, nanos / 1000), HIGHEST_MICROS));
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
    void unanswered(long intended, long end, long longestNanos) {
        if (intended >= windowStart && intended < end && end - intended > longestNanos) {
            unanswered++;
            record(latency, end - intended);
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

    void error(String reason) {
        errors++;
        if (failures.size() < MAX_REASONS || failures.containsKey(reason)) {
            failures.merge(reason, 1L, Long::sum);
        }
    }

    /** Requests counted in second {@code i} of the window so far; safe from any thread. */
    long completedInSecond(int i) {
        return perSecond.get(i);
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

    /** Adds another loop's measurements to these (both with as many windows). */
    void add(Measurements other) {
        latency.add(other.latency);
        uncorrected.add(other.uncorrected);
        scheduleLag.add(other.scheduleLag);
        requests += other.requests;
        errors += other.errors;
        handshakes += other.handshakes;
        compressed += other.compressed;
        unanswered += other.unanswered;
        other.failures.forEach((k, v) -> failures.merge(k, v, Long::sum));
        for (int i = 0; i < perSecond.length(); i++) {
            perSecond.addAndGet(i, other.perSecond.get(i));
        }
    }
}
