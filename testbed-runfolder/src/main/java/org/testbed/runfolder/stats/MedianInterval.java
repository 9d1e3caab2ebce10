package org.testbed.runfolder.stats;

import java.util.Arrays;

/**
 * The median of a step's repeated samples and a distribution-free confidence interval for it.
 *
 * <p>Server throughput samples are not normal (a slow JIT decision, a GC, a noisy neighbour give
 * skewed and heavy-tailed scatter) and there are few of them, so the interval makes no assumption
 * about their distribution: it is a pair of order statistics {@code [x_(k), x_(n-k+1)]} of the
 * sorted samples. For any continuous distribution, each sample falls below the true median with
 * probability ½, so the interval misses the median only when k or more samples fall on one side
 * of it, and its coverage is {@code 1 − 2·P(Bin(n, ½) ≤ k−1)}. The largest k whose coverage is at
 * least {@link #LEVEL} gives the narrowest such interval. With five or fewer samples even
 * {@code [min, max]} is below 95 % (n = 3 reaches 75 %, n = 5 93.75 %): the interval is then the
 * full range and {@link Spread#confidence()} says honestly what it reaches.
 */
public final class MedianInterval {
    /** The coverage the interval aims at. */
    public static final double LEVEL = 0.95;

    private MedianInterval() {
    }

    /**
     * The spread of {@code samples}: median, range and confidence interval of the median. NaN
     * samples are ignored; one sample gives {@link Spread#single}; none gives a spread of NaNs with
     * {@code n = 0}.
     */
    public static Spread of(double[] samples) {
        double[] x = sortedWithoutNaN(samples);
        int n = x.length;
        if (n == 0) {
            return new Spread(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
        }
        if (n == 1) {
            return Spread.single(x[0]);
        }
        int k = rank(n);
        return new Spread(n, sortedMedian(x), x[0], x[n - 1], x[k - 1], x[n - k], coverage(n, k));
    }

    /**
     * The rank k (from 1) of the interval's lower end for n samples: the largest k whose coverage
     * reaches {@link #LEVEL}, or 1 ({@code [min, max]}) when none does. The upper end is the
     * sample of rank n − k + 1.
     */
    public static int rank(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1: " + n);
        }
        int best = 1;
        for (int k = 1; 2 * k <= n; k++) {
            if (coverage(n, k) >= LEVEL) {
                best = k;
            } else {
                break;
            }
        }
        return best;
    }

    /** The coverage of {@code [x_(k), x_(n-k+1)]} as an interval of the median: 1 − 2·P(Bin(n, ½) ≤ k−1). */
    public static double coverage(int n, int k) {
        if (k < 1 || 2 * k > n + 1) {
            throw new IllegalArgumentException("rank " + k + " out of range for n = " + n);
        }
        return Math.max(0, 1 - 2 * binomialHalfCdf(n, k - 1));
    }

    /** P(Bin(n, ½) ≤ j), summed in log space so that large n does not underflow. */
    static double binomialHalfCdf(int n, int j) {
        if (j < 0) {
            return 0;
        }
        if (j >= n) {
            return 1;
        }
        double logPmf = n * Math.log(0.5);
        double sum = 0;
        for (int i = 0; i <= j; i++) {
            sum += Math.exp(logPmf);
            logPmf += Math.log((double) (n - i) / (i + 1));
        }
        return Math.min(1, sum);
    }

    /** The median of {@code samples}, NaNs ignored (the mean of the middle two for an even count); NaN when none. */
    public static double median(double[] samples) {
        double[] x = sortedWithoutNaN(samples);
        return x.length == 0 ? Double.NaN : sortedMedian(x);
    }

    static double sortedMedian(double[] x) {
        int n = x.length;
        return n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
    }

    /** The values that are not NaN, sorted. */
    static double[] sortedWithoutNaN(double[] samples) {
        double[] x = Arrays.stream(samples).filter(v -> !Double.isNaN(v)).toArray();
        Arrays.sort(x);
        return x;
    }
}
