package org.testbed.driver;

import org.HdrHistogram.Histogram;

/** Latency percentiles of a step in milliseconds (microsecond resolution). */
public record Latency(double p50, double p90, double p99, double p999, double max) {
    public static final Latency NONE = new Latency(0, 0, 0, 0, 0);

    /** From a histogram of microseconds. */
    public static Latency ofMicros(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return NONE;
        }
        return new Latency(ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(90)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getValueAtPercentile(99.9)), ms(micros.getMaxValue()));
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }
}
