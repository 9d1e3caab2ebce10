package org.testbed.runfolder.stats;

/**
 * How a figure varied over the samples of a step: their median, their range, and a confidence
 * interval: for a step's samples that of their centre fork by fork ({@link ForkedSamples}, which
 * can reach beyond the range when forks are few); for repeated capacity searches the
 * distribution-free interval of the median ({@link MedianInterval}).
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

    /**
     * The smallest change the interval can tell, in per cent: its half-width on the log scale,
     * √(high / low) − 1 (the interval is symmetric there: centre ÷ and × the same factor). NaN
     * without an interval.
     */
    public double halfWidthPct() {
        if (!(confidence > 0) || !(ciLow > 0) || !(ciHigh >= ciLow) || Double.isInfinite(ciHigh)) {
            return Double.NaN;
        }
        return 100 * (Math.sqrt(ciHigh / ciLow) - 1);
    }
}
