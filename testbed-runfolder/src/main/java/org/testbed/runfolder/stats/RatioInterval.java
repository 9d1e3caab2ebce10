package org.testbed.runfolder.stats;

/**
 * The ratio B/A of one figure of two runs (run A's samples of a step and run B's) with its
 * confidence interval, as {@link ForkedSamples#ratio} computes it: the ratio of the two centres
 * (geometric means of the fork means) and Welch's t interval on the log scale, forks as the unit.
 * Without samples on a side everything is NaN; with one sample on a side there is a ratio but no
 * interval.
 *
 * @param ratio the estimate of B/A
 * @param ciLow the interval's lower end (a ratio); NaN without a noise estimate
 * @param ciHigh the interval's upper end
 * @param confidence the interval's coverage, 0..1 (0 without an interval)
 * @param nA how many samples of A were used
 * @param nB how many samples of B were used
 */
public record RatioInterval(double ratio, double ciLow, double ciHigh, double confidence, int nA, int nB) {

    /** The ratio B/A of {@code b} over {@code a}, each sample from a fork of its own. */
    public static RatioInterval of(double[] a, double[] b) {
        return ForkedSamples.ratio(ForkedSamples.ofIndependent(a), ForkedSamples.ofIndependent(b));
    }

    /** A ratio without samples to estimate its noise from (one figure a side): no interval. */
    public static RatioInterval pointOnly(double b, double a) {
        double r = a > 0 && b >= 0 && Double.isFinite(a) && Double.isFinite(b) ? b / a : Double.NaN;
        return new RatioInterval(r, Double.NaN, Double.NaN, 0, Double.isNaN(a) ? 0 : 1, Double.isNaN(b) ? 0 : 1);
    }

    /** Whether the whole interval lies above 1 or below 1. */
    public boolean excludesOne() {
        return ciLow > 1 || ciHigh < 1;
    }
}
