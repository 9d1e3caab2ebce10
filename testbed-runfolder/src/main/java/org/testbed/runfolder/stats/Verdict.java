package org.testbed.runfolder.stats;

import java.util.Arrays;

/**
 * What {@code compare} may say about one figure of one step, B against A.
 *
 * <p>The rule ({@link #decide}): with fewer than two samples on either side there is no noise
 * estimate, and no change is called. Otherwise a figure changed only when BOTH hold:
 * <ul>
 * <li>the whole confidence interval of the ratio B/A ({@link RatioInterval}) lies on one side of 1;
 * <li>the estimated change |ratio − 1| exceeds a noise floor: the larger of a minimum effect
 *     ({@link #MIN_EFFECT}, 5 %, or the metric's own: 15 % for p99) and the two runs' relative
 *     spreads (max − min) / median of their samples of that figure, added up.
 * </ul>
 *
 * <p>Why not the interval alone: a comparison puts dozens of figures side by side (variants ×
 * scenarios × levels × three metrics), and a 95 % interval per figure excludes the truth about
 * one time in twenty by design, so an A/A comparison of a run with a re-run of itself would call
 * some rows "faster" or "slower" every time. Requiring the change to exceed the floor as well keeps
 * those false alarms rare, and keeps a run's own scatter between repeats (a variant whose
 * throughput swings by 10 % from one fresh server to the next) from being reported as a change
 * smaller than that scatter. The price is that changes below 5 %, or below the noise of the runs,
 * are reported as "within noise": repeat more, on a quieter machine, to resolve them.
 *
 * <p>Direction: for throughput higher is better, so B above A is {@link #FASTER}; for p99 latency
 * and CPU per request lower is better, so B below A is {@link #FASTER}.
 */
public enum Verdict {
    /** B is better beyond noise. */
    FASTER("faster"),
    /** B is worse beyond noise. */
    SLOWER("slower"),
    /** No change that stands out from the noise of the two runs. */
    WITHIN_NOISE("within noise"),
    /** Fewer than two samples on a side: the noise is unknown, so no change can be called. */
    NO_NOISE_ESTIMATE("no noise estimate");

    /** The smallest change ever called (5 %). */
    public static final double MIN_EFFECT = 0.05;

    private final String wireName;

    Verdict(String wireName) {
        this.wireName = wireName;
    }

    /** The name in compare.csv, on the console and in the page: "faster", "slower", "within noise", "no noise estimate". */
    public String wireName() {
        return wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }

    /** The verdict with this wire name. */
    public static Verdict fromWireName(String name) {
        for (Verdict v : values()) {
            if (v.wireName.equals(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("no verdict named '" + name + "'");
    }

    /** Whether this is a change beyond noise, either way. */
    public boolean changed() {
        return this == FASTER || this == SLOWER;
    }

    /** The verdict on samples {@code a} and {@code b} of one figure, with the default minimum effect. */
    public static Verdict of(double[] a, double[] b, boolean higherIsBetter) {
        return decide(RatioInterval.of(a, b), noiseFloor(a, b, MIN_EFFECT), higherIsBetter);
    }

    /**
     * The rule: {@link #NO_NOISE_ESTIMATE} when either side has fewer than 2 samples (or the ratio
     * is undefined); {@link #FASTER} or {@link #SLOWER} when the interval lies wholly on one side
     * of 1 and |ratio − 1| exceeds {@code noiseFloor}; else {@link #WITHIN_NOISE}.
     *
     * @param noiseFloor the smallest relative change to call, e.g. 0.05 ({@link #noiseFloor})
     * @param higherIsBetter true for throughput, false for latency and CPU per request
     */
    public static Verdict decide(RatioInterval r, double noiseFloor, boolean higherIsBetter) {
        if (r.nA() < 2 || r.nB() < 2 || Double.isNaN(r.ratio()) || Double.isNaN(r.ciLow()) || Double.isNaN(r.ciHigh())) {
            return NO_NOISE_ESTIMATE;
        }
        if (!r.excludesOne() || !(Math.abs(r.ratio() - 1) > noiseFloor)) {
            return WITHIN_NOISE;
        }
        boolean up = r.ratio() > 1;
        return up == higherIsBetter ? FASTER : SLOWER;
    }

    /**
     * The noise floor of a comparison: the larger of {@code minEffect} and the two sides'
     * {@link #relativeSpread}s added up. Added up, not the larger of the two: a run's own scatter
     * understates how far a re-run lands (the machine, memcached's fill, the JIT's choices differ
     * between runs), and an A/A pair of default runs here, compared with the larger of the two,
     * called 7 of 60 figures a change; with the sum (and p99's larger minimum effect), none that
     * had settled warm-ups.
     */
    public static double noiseFloor(double[] a, double[] b, double minEffect) {
        return Math.max(minEffect, relativeSpread(a) + relativeSpread(b));
    }

    /**
     * A run's own scatter of one figure: (max − min) / median of its samples (positive finite ones,
     * as {@link RatioInterval} uses); 0 with fewer than two samples.
     */
    public static double relativeSpread(double[] samples) {
        double[] x = Arrays.stream(samples).filter(v -> v > 0 && Double.isFinite(v)).sorted().toArray();
        if (x.length < 2) {
            return 0;
        }
        return (x[x.length - 1] - x[0]) / MedianInterval.sortedMedian(x);
    }
}
