package org.testbed.runner.step;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.testbed.runfolder.stats.MedianInterval;

/**
 * What one more fork of a variant's scenario costs, from what the run's own forks cost: the
 * variant's start, preload, health checks and stop (its sessions' wall time less their warm-ups and
 * windows), the scenario's warm-up as long as its forks' were (the median), and its windows.
 */
final class ForkCosts {
    /** Per measured window besides its length: the health check before it and the driver's start and stop. */
    static final Duration PER_WINDOW = Duration.ofMillis(500);
    /** A start before any has been timed. */
    private static final double FIRST_START_SECONDS = 8;

    private final Map<String, double[]> overheads = new HashMap<>();

    /** A session of {@code variant} under {@code conditions} took {@code wallMillis}, of which {@code plannedMillis} warm-ups and windows. */
    void sessionDone(String variant, String conditions, long wallMillis, long plannedMillis) {
        overheads.merge(variant + " " + conditions, new double[] {Math.max(0, wallMillis - plannedMillis) / 1000.0, 1},
                (a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
    }

    /** The start, preload, checks and stop of one session of {@code variant} under {@code conditions}, in seconds. */
    double startSeconds(String variant, String conditions) {
        double[] o = overheads.get(variant + " " + conditions);
        return o == null ? FIRST_START_SECONDS : o[0] / o[1];
    }

    /**
     * One more fork of a scenario, in seconds: the start, a warm-up as long as the median of
     * {@code warmUps} (seconds), and {@code windows} windows of {@code duration}.
     */
    double forkSeconds(String variant, String conditions, List<Double> warmUps, int windows, Duration duration) {
        return startSeconds(variant, conditions) + warmUpSeconds(warmUps) + windows * windowSeconds(duration);
    }

    /** The median warm-up, 0 without one. */
    static double warmUpSeconds(List<Double> warmUps) {
        double m = MedianInterval.median(warmUps.stream().mapToDouble(Double::doubleValue).toArray());
        return Double.isNaN(m) ? 0 : m;
    }

    /** A measured window and what comes with it, in seconds. */
    static double windowSeconds(Duration duration) {
        return (duration.toMillis() + PER_WINDOW.toMillis()) / 1000.0;
    }
}
