package org.testbed.runner.fault;

import java.util.Arrays;
import java.util.OptionalInt;

/**
 * How long a window took to come back from a fault, second by second: the baseline is the median
 * of the whole seconds before the fault's start (answered requests per second, and p99); the
 * window is back in the first whole second after the fault's end whose throughput is at least 90 %
 * of the baseline's and whose p99 is at most 110 % of it. Better than before counts as back (a
 * server working off its backlog answers faster than usual for a moment).
 *
 * @param baselineRps the answered requests per second before the fault
 * @param baselineP99Ms the p99 before the fault, ms
 * @param firstBack the first second (of the window) that was back; empty when none was
 * @param seconds from the fault's end (rounded up to a whole second) to that second, 0 when the first whole second after it was back
 */
public record Recovery(double baselineRps, double baselineP99Ms, OptionalInt firstBack, OptionalInt seconds) {
    /** How far from the baseline still counts as back. */
    public static final double TOLERANCE = 0.10;

    public boolean recovered() {
        return seconds.isPresent();
    }

    /**
     * @param rps answered (not failed) requests in each whole second of the window
     * @param p99Ms each whole second's p99, ms (NaN when nothing arrived)
     * @param fault when the fault was in effect; it must start after the window's first second
     */
    public static Recovery of(double[] rps, double[] p99Ms, FaultTimes fault) {
        int before = (int) Math.floor(fault.fromS() + 1e-9);
        if (before < 1 || rps.length != p99Ms.length) {
            throw new IllegalArgumentException("a recovery needs at least one whole second before the fault");
        }
        double baseRps = median(Arrays.copyOf(rps, Math.min(before, rps.length)));
        double baseP99 = median(Arrays.stream(p99Ms, 0, Math.min(before, p99Ms.length)).filter(Double::isFinite).toArray());
        int after = (int) Math.ceil(fault.toS() - 1e-9);
        for (int s = after; s < rps.length; s++) {
            if (rps[s] >= (1 - TOLERANCE) * baseRps && Double.isFinite(p99Ms[s]) && p99Ms[s] <= (1 + TOLERANCE) * baseP99) {
                return new Recovery(baseRps, baseP99, OptionalInt.of(s), OptionalInt.of(s - after));
            }
        }
        return new Recovery(baseRps, baseP99, OptionalInt.empty(), OptionalInt.empty());
    }

    private static double median(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] sorted = v.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }
}
