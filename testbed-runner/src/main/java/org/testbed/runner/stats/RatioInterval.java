package org.testbed.runner.stats;

import java.util.Arrays;

/**
 * The ratio B/A of two sets of samples of one figure (run A's repeats of a step and run B's), with
 * a distribution-free confidence interval.
 *
 * <p>On the log scale a ratio is a shift: {@code log b − log a}. The estimate is the
 * Hodges–Lehmann shift, the median of all n·m pairwise differences {@code log(b_j) − log(a_i)},
 * exponentiated back to a ratio. Its interval is the Mann–Whitney (Moses) one: the C-th smallest
 * and C-th largest pairwise difference, where C comes from the null distribution of the
 * Mann–Whitney count U, so that the interval covers the true shift with probability
 * {@code 1 − 2·P(U ≤ C−1)}. The largest C reaching {@link #LEVEL} gives the narrowest interval;
 * when even C = 1 (the full range of pairwise ratios) falls short, as with 3 samples a side (90 %)
 * or fewer, the full range is given with the coverage it reaches. The null distribution is
 * counted exactly for small samples and taken from the normal approximation for large ones
 * ({@code n·m > }{@link #EXACT_LIMIT}). It assumes the two sets differ by a shift and ignores ties,
 * which makes it approximate for samples rounded to few digits.
 *
 * <p>Samples that are NaN, infinite, zero or negative are ignored: they have no logarithm, and a
 * ratio of them is undefined. When either side has none left, everything is NaN.
 *
 * @param ratio the estimate of B/A (Hodges–Lehmann)
 * @param ciLow the interval's lower end (a ratio)
 * @param ciHigh the interval's upper end
 * @param confidence the interval's coverage, 0..1 (0 when either side has a single sample)
 * @param nA how many samples of A were used
 * @param nB how many samples of B were used
 */
public record RatioInterval(double ratio, double ciLow, double ciHigh, double confidence, int nA, int nB) {
    /** The coverage the interval aims at. */
    public static final double LEVEL = 0.95;
    /** Above this many pairs (n·m) U's null distribution is approximated by the normal one. */
    public static final int EXACT_LIMIT = 2500;

    /** The ratio B/A of {@code b} over {@code a} with its interval. */
    public static RatioInterval of(double[] a, double[] b) {
        double[] la = logs(a);
        double[] lb = logs(b);
        int n = la.length;
        int m = lb.length;
        if (n == 0 || m == 0) {
            return new RatioInterval(Double.NaN, Double.NaN, Double.NaN, 0, n, m);
        }
        double[] d = new double[n * m];
        int p = 0;
        for (double x : la) {
            for (double y : lb) {
                d[p++] = y - x;
            }
        }
        Arrays.sort(d);
        double estimate = Math.exp(MedianInterval.sortedMedian(d));
        if (n < 2 && m < 2) {
            return new RatioInterval(estimate, estimate, estimate, 0, n, m);
        }
        int c = criticalRank(n, m);
        return new RatioInterval(estimate, Math.exp(d[c - 1]), Math.exp(d[d.length - c]), coverage(n, m, c), n, m);
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

    /**
     * The rank C (from 1) of the interval's ends among the n·m sorted pairwise differences: the
     * largest C whose coverage reaches {@link #LEVEL}, or 1 (the full range) when none does.
     */
    public static int criticalRank(int n, int m) {
        double[] cdf = uCdf(n, m);
        int best = 1;
        for (int c = 1; 2 * c <= n * m; c++) {
            if (1 - 2 * cdf[c - 1] >= LEVEL) {
                best = c;
            } else {
                break;
            }
        }
        return best;
    }

    /** The coverage of the interval between the C-th smallest and C-th largest pairwise difference: 1 − 2·P(U ≤ C−1). */
    public static double coverage(int n, int m, int c) {
        if (c < 1 || 2 * c > n * m + 1) {
            throw new IllegalArgumentException("rank " + c + " out of range for " + n + " x " + m);
        }
        return Math.max(0, 1 - 2 * uCdf(n, m)[c - 1]);
    }

    /**
     * P(U ≤ u) for u = 0..n·m under the null hypothesis, U the Mann–Whitney count of pairs with
     * the A sample above the B sample: exact up to {@link #EXACT_LIMIT} pairs, normal beyond.
     */
    static double[] uCdf(int n, int m) {
        int pairs = n * m;
        double[] cdf = new double[pairs + 1];
        if (pairs > EXACT_LIMIT) {
            double mean = pairs / 2.0;
            double sd = Math.sqrt(pairs * (n + m + 1) / 12.0);
            for (int u = 0; u <= pairs; u++) {
                cdf[u] = Normal.cdf((u + 0.5 - mean) / sd);
            }
            return cdf;
        }
        double[] pmf = uPmf(n, m);
        double sum = 0;
        for (int u = 0; u <= pairs; u++) {
            sum += pmf[u];
            cdf[u] = Math.min(1, sum);
        }
        return cdf;
    }

    /**
     * The exact null distribution of U, by the recurrence on the largest of the i + j values: it is
     * one of the i A samples with probability i/(i+j), and then above all j B samples (j more pairs),
     * or one of the B samples, adding no pair. Probabilities rather than counts keep it in range.
     */
    static double[] uPmf(int n, int m) {
        double[][] previous = new double[m + 1][];
        for (int j = 0; j <= m; j++) {
            previous[j] = new double[] {1};
        }
        for (int i = 1; i <= n; i++) {
            double[][] current = new double[m + 1][];
            current[0] = new double[] {1};
            for (int j = 1; j <= m; j++) {
                double[] p = new double[i * j + 1];
                double fromA = (double) i / (i + j);
                double fromB = (double) j / (i + j);
                double[] a = previous[j];
                double[] b = current[j - 1];
                for (int u = 0; u < p.length; u++) {
                    double v = 0;
                    if (u - j >= 0 && u - j < a.length) {
                        v += fromA * a[u - j];
                    }
                    if (u < b.length) {
                        v += fromB * b[u];
                    }
                    p[u] = v;
                }
                current[j] = p;
            }
            previous = current;
        }
        return previous[m];
    }

    private static double[] logs(double[] samples) {
        return Arrays.stream(samples).filter(v -> v > 0 && Double.isFinite(v)).map(Math::log).toArray();
    }

    /** The standard normal distribution function. */
    static final class Normal {
        private Normal() {
        }

        static double cdf(double z) {
            return 0.5 * erfc(-z / Math.sqrt(2));
        }

        /** The complementary error function, relative error below 1.2e-7 (Chebyshev fit, as in Numerical Recipes). */
        static double erfc(double x) {
            double z = Math.abs(x);
            double t = 1 / (1 + 0.5 * z);
            double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                    + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                    + t * (-0.82215223 + t * 0.17087277)))))))));
            return x >= 0 ? r : 2 - r;
        }
    }
}
