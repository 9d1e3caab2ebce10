package org.testbed.runfolder.stats;

import java.util.Arrays;

/**
 * Whether a server's throughput has settled, from the requests per second of consecutive 1-second
 * windows: (a) during warm-up, to stop it once the JIT and the caches have caught up instead of
 * after a fixed time; (b) after a measured step, to flag a step whose throughput still trended
 * within its own window (its mean is then a figure of a moving target).
 */
public final class SteadyState {
    /** How many of the last windows must agree for the warm-up to count as settled. */
    public static final int SETTLE_WINDOWS = 3;
    /** The default tolerance of the warm-up detector: the last windows within 3 % of each other. */
    public static final double WARMUP_TOLERANCE = 0.03;
    /** The smallest trend flagged within a measured step (5 %). */
    public static final double MIN_TREND = 0.05;
    /** How many standard errors of the difference of the two thirds' medians a trend must exceed to be flagged. */
    public static final double TREND_SIGMAS = 3;

    private SteadyState() {
    }

    /** {@link #settled(double[], double)} with the default tolerance of 3 %. */
    public static boolean settled(double[] windows) {
        return settled(windows, WARMUP_TOLERANCE);
    }

    /**
     * Whether the warm-up may stop: throughput is no longer rising, that is the mean of the last
     * {@value #SETTLE_WINDOWS} windows is not above the mean of the {@value #SETTLE_WINDOWS} before
     * them by more than {@code tolerance}; and the last windows are flat, that is within
     * {@code tolerance} of each other ((max − min) / mean), or scattered no wider than the three
     * before them (a steady scatter, not a change). The second form of flatness matters on real
     * machines: windows of a small VM scatter by ±5 %, and a closed model whose users all wait the
     * same 150 ms completes in waves that alias with 1-second windows (2400, 2800, 2400, ... req/s),
     * so a fixed few per cent would keep such a warm-up going to its maximum. Needs at least
     * 2 × {@value #SETTLE_WINDOWS} windows; a window that is NaN, zero or negative (no throughput
     * yet) among the last six means not settled; an outlier among the last three widens their
     * range and so waits until it is out of them.
     *
     * <p>Meant to be called once per second with all the windows so far (only the last six are
     * read); the caller bounds the warm-up by a maximum, for a server that never settles.
     *
     * @param windows requests per second of each 1-second window, oldest first
     */
    public static boolean settled(double[] windows, double tolerance) {
        int n = windows.length;
        if (n < 2 * SETTLE_WINDOWS) {
            return false;
        }
        double[] last = Arrays.copyOfRange(windows, n - SETTLE_WINDOWS, n);
        double[] before = Arrays.copyOfRange(windows, n - 2 * SETTLE_WINDOWS, n - SETTLE_WINDOWS);
        for (double[] w : new double[][] {last, before}) {
            for (double v : w) {
                if (!(v > 0) || Double.isInfinite(v)) {
                    return false;
                }
            }
        }
        double lastMean = mean(last);
        boolean flat = range(last) / lastMean <= tolerance || range(last) <= range(before);
        boolean notRising = lastMean <= mean(before) * (1 + tolerance);
        return flat && notRising;
    }

    private static double range(double[] w) {
        return Arrays.stream(w).max().orElseThrow() - Arrays.stream(w).min().orElseThrow();
    }

    /**
     * The trend check of a measured step: the median of the first third of its windows against the
     * median of the last third. Medians, so that one outlier window (a GC pause, a hiccup of the
     * machine) does not flag the step. Flagged not steady when the relative difference exceeds the
     * larger of {@link #MIN_TREND} and a noise term from the windows' own scatter:
     * {@value #TREND_SIGMAS} standard errors of the difference of the two medians
     * (√2 × 1.2533 σ / √k; without the 1.2533 for k ≤ 2) relative to the first third's median, with k windows in a third and σ estimated from the second differences of successive windows
     * (w<sub>i+1</sub> − 2w<sub>i</sub> + w<sub>i−1</sub>; 1.4826 × their median absolute value / √6
     * for independent noise): second differences cancel a linear trend, so a trend does not inflate
     * its own noise estimate (first differences would: a steady climb of 2000 req/s a second looks
     * like 2000 req/s of noise to them), and unlike the scatter within a third they exist even when
     * a third is a single window (a 5 s step).
     *
     * <p>With fewer than 3 windows there is nothing to compare and the step counts as steady. NaN
     * windows are ignored.
     *
     * @param windows requests per second of each 1-second window of the step, oldest first
     */
    public static Trend trend(double[] windows) {
        double[] w = Arrays.stream(windows).filter(v -> !Double.isNaN(v)).toArray();
        int k = w.length / 3;
        if (k < 1) {
            double m = MedianInterval.median(w);
            return new Trend(m, m, 0, MIN_TREND, true);
        }
        double firstMedian = MedianInterval.median(Arrays.copyOfRange(w, 0, k));
        double lastMedian = MedianInterval.median(Arrays.copyOfRange(w, w.length - k, w.length));
        double[] curvature = new double[w.length - 2];
        for (int i = 1; i < w.length - 1; i++) {
            curvature[i - 1] = Math.abs(w[i + 1] - 2 * w[i] + w[i - 1]);
        }
        double sigma = 1.4826 * MedianInterval.median(curvature) / Math.sqrt(6);
        if (!(firstMedian > 0)) {
            // No throughput at the start: steady only if there was none at the end either.
            boolean flat = !(lastMedian > 0);
            return new Trend(firstMedian, lastMedian, flat ? 0 : Double.POSITIVE_INFINITY, MIN_TREND, flat);
        }
        double change = (lastMedian - firstMedian) / firstMedian;
        // The median of k windows scatters by σ / √k for k ≤ 2 (one window, or the mean of two) and
        // by about 1.2533 σ / √k beyond; the difference of two such medians by √2 times that. A
        // change counts beyond TREND_SIGMAS of those.
        double medianScatter = (k <= 2 ? 1 : 1.2533) * sigma / Math.sqrt(k);
        double threshold = Math.max(MIN_TREND, TREND_SIGMAS * Math.sqrt(2) * medianScatter / firstMedian);
        return new Trend(firstMedian, lastMedian, change, threshold, !(Math.abs(change) > threshold));
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    /**
     * The outcome of {@link #trend}.
     *
     * @param firstMedian the median throughput of the step's first third of windows
     * @param lastMedian the median of its last third
     * @param change (last − first) / first, e.g. 0.12 for 12 % higher at the end
     * @param threshold the relative change above which the step is flagged
     * @param steady false when |change| exceeded the threshold: the step's figures are of a moving target
     */
    public record Trend(double firstMedian, double lastMedian, double change, double threshold, boolean steady) {
    }
}
