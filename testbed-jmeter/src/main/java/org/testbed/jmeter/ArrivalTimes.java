package org.testbed.jmeter;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.testbed.driver.Latency;

/**
 * An open-model step's samples as JMeter started them: how late the sends were against the even
 * schedule they were meant to follow, and how many requests were in flight at once.
 *
 * <p>JMeter times a sample from the moment its thread runs the sampler, not from the arrival the
 * schedule meant: a thread started late (JMeter's own threads falling behind) is queueing inside the
 * load generator that its latency leaves out. The schedule is not in the results, so it is
 * reconstructed: each engine's arrivals are evenly spaced at its rate, and its {@code k}-th earliest
 * start is compared with the {@code k}-th arrival, the schedule placed as late as its sends allow
 * (the earliest send relative to its arrival is taken as on time). That pairing and placing give
 * the least lag the samples admit, so the lag read is a lower bound, at JMeter's millisecond
 * resolution.
 */
final class ArrivalTimes {
    private final double perEngineRate;
    private final Map<String, long[]> startsByEngine = new LinkedHashMap<>();
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private long[] starts = new long[1024];
    private long[] ends = new long[1024];
    private int samples;

    /** {@code perEngineRate}: the arrivals per second each engine's schedule runs (the plan's rate). */
    ArrivalTimes(double perEngineRate) {
        this.perEngineRate = perEngineRate;
    }

    void add(JtlReader.Sample s) {
        if (samples == starts.length) {
            starts = Arrays.copyOf(starts, samples * 2);
            ends = Arrays.copyOf(ends, samples * 2);
        }
        starts[samples] = s.startMillis();
        ends[samples] = s.endMillis();
        samples++;
        int n = counts.merge(s.engine(), 1, Integer::sum);
        long[] own = startsByEngine.computeIfAbsent(s.engine(), e -> new long[1024]);
        if (n > own.length) {
            own = Arrays.copyOf(own, own.length * 2);
            startsByEngine.put(s.engine(), own);
        }
        own[n - 1] = s.startMillis();
    }

    /** How late each send was after its arrival on the reconstructed schedule, in microseconds. */
    Latency scheduleLag() {
        return scheduleLag(Long.MIN_VALUE);
    }

    /**
     * As {@link #scheduleLag()}, of the sends from {@code fromMillis} on (the window's, after the
     * warm-up): the schedule is placed from every send, the lag read of those only.
     */
    Latency scheduleLag(long fromMillis) {
        Histogram lag = new Histogram(TimeUnit.HOURS.toMicros(1), 3);
        double spacingMillis = 1000.0 / perEngineRate;
        startsByEngine.forEach((engine, own) -> {
            int n = counts.get(engine);
            long[] sorted = Arrays.copyOf(own, n);
            Arrays.sort(sorted);
            double origin = Double.MAX_VALUE;
            for (int k = 0; k < n; k++) {
                origin = Math.min(origin, sorted[k] - k * spacingMillis);
            }
            for (int k = 0; k < n; k++) {
                if (sorted[k] < fromMillis) {
                    continue;
                }
                double late = sorted[k] - (origin + k * spacingMillis);
                lag.recordValue(Math.min(lag.getHighestTrackableValue(), Math.max(0, Math.round(late * 1000))));
            }
        });
        return Latency.ofMicros(lag);
    }

    /** The most requests in flight at once, each from its start to its end: with a connection per arrival, the most connections open. */
    int peakInFlight() {
        long[] s = Arrays.copyOf(starts, samples);
        long[] e = Arrays.copyOf(ends, samples);
        Arrays.sort(s);
        Arrays.sort(e);
        int peak = 0;
        int open = 0;
        for (int i = 0, j = 0; i < s.length; ) {
            // A request ending in the millisecond another starts is taken as gone.
            if (j < e.length && e[j] <= s[i]) {
                open--;
                j++;
            } else {
                open++;
                i++;
                peak = Math.max(peak, open);
            }
        }
        return peak;
    }
}
