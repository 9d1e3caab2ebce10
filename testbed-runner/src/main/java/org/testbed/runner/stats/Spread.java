package org.testbed.runner.stats;

/**
 * How a figure varied over the repeats of a step: the median of the samples, their range, and a
 * distribution-free confidence interval of the median with the confidence it actually reaches
 * (with few samples 95 % is out of reach: see {@code MedianInterval}).
 *
 * @param n how many samples
 * @param median the median of the samples (the figure results.csv shows)
 * @param min the smallest sample
 * @param max the largest sample
 * @param ciLow the interval's lower end
 * @param ciHigh the interval's upper end
 * @param confidence the interval's coverage, 0..1 (0 when there is a single sample: no interval)
 */
public record Spread(int n, double median, double min, double max, double ciLow, double ciHigh, double confidence) {

    /** One sample: no spread known. */
    public static Spread single(double value) {
        return new Spread(1, value, value, value, value, value, 0);
    }

    /** The interval's half-width relative to the median, e.g. 0.04 for ±4 %; NaN without an interval. */
    public double relativeHalfWidth() {
        if (n < 2 || median == 0 || Double.isNaN(median)) {
            return Double.NaN;
        }
        return (ciHigh - ciLow) / 2 / Math.abs(median);
    }
}
