package org.testbed.runner.load;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * What the window counted: requests, errors with their reasons, latencies in an HdrHistogram
 * (microseconds, 3 significant digits). Each event loop keeps its own (single-threaded); the
 * coordinator adds them up when the loops have finished.
 */
final class Measurements {
    static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);
    /** Distinct failure reasons an event loop keeps; further ones are only counted. */
    private static final int MAX_REASONS = 8;

    final Histogram latency = new Histogram(HIGHEST_MICROS, 3);
    final Map<String, Long> failures = new LinkedHashMap<>();
    long requests;
    long errors;

    /** A response (or a failure in its place) at {@code now} to a request meant to start at {@code startNanos}. */
    void request(long startNanos, long now) {
        requests++;
        long micros = Math.max(0, (now - startNanos) / 1000);
        latency.recordValue(Math.min(micros, HIGHEST_MICROS));
    }

    void error(String reason) {
        errors++;
        if (failures.size() < MAX_REASONS || failures.containsKey(reason)) {
            failures.merge(reason, 1L, Long::sum);
        }
    }

    /** Adds another loop's measurements to these. */
    void add(Measurements other) {
        latency.add(other.latency);
        requests += other.requests;
        errors += other.errors;
        other.failures.forEach((k, v) -> failures.merge(k, v, Long::sum));
    }
}
