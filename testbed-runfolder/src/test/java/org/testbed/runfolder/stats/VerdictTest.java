package org.testbed.runfolder.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class VerdictTest {
    static final double[] A = {1000, 1001, 1002, 1003, 1004};

    static double[] times(double[] x, double f) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = x[i] * f;
        }
        return y;
    }

    @Test
    void wireNames() {
        assertThat(Verdict.FASTER.wireName()).isEqualTo("faster");
        assertThat(Verdict.SLOWER).hasToString("slower");
        assertThat(Verdict.WITHIN_NOISE.wireName()).isEqualTo("within noise");
        assertThat(Verdict.NO_NOISE_ESTIMATE.wireName()).isEqualTo("no noise estimate");
        assertThat(Verdict.fromWireName("within noise")).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(Verdict.FASTER.changed()).isTrue();
        assertThat(Verdict.NO_NOISE_ESTIMATE.changed()).isFalse();
    }

    @Test
    void fewerThanTwoSamplesOnASideIsNoNoiseEstimate() {
        assertThat(Verdict.of(new double[] {1000}, new double[] {2000}, true)).isEqualTo(Verdict.NO_NOISE_ESTIMATE);
        assertThat(Verdict.of(A, new double[] {2000}, true)).isEqualTo(Verdict.NO_NOISE_ESTIMATE);
        assertThat(Verdict.of(new double[] {1000, Double.NaN}, A, true)).isEqualTo(Verdict.NO_NOISE_ESTIMATE);
        assertThat(Verdict.decide(RatioInterval.pointOnly(2, 1), 0.05, true)).isEqualTo(Verdict.NO_NOISE_ESTIMATE);
    }

    @Test
    void aClearShiftIsAChangeInTheMetricsDirection() {
        double[] b = times(A, 1.3);
        // More throughput is better, more latency or CPU per request is worse.
        assertThat(Verdict.of(A, b, true)).isEqualTo(Verdict.FASTER);
        assertThat(Verdict.of(A, b, false)).isEqualTo(Verdict.SLOWER);
        assertThat(Verdict.of(b, A, true)).isEqualTo(Verdict.SLOWER);
        assertThat(Verdict.of(b, A, false)).isEqualTo(Verdict.FASTER);
    }

    @Test
    void overlappingSamplesAreWithinNoise() {
        assertThat(Verdict.of(A, A.clone(), true)).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(Verdict.of(new double[] {900, 1000, 1100}, new double[] {950, 1050, 1150}, true)).isEqualTo(Verdict.WITHIN_NOISE);
    }

    @Test
    void aChangeBelowTheMinimumEffectIsWithinNoiseEvenWhenTheIntervalExcludesOne() {
        double[] b = times(A, 1.03);
        RatioInterval r = RatioInterval.of(A, b);
        assertThat(r.excludesOne()).isTrue();
        assertThat(r.ratio()).isCloseTo(1.03, within(1e-3));
        assertThat(Verdict.of(A, b, true)).isEqualTo(Verdict.WITHIN_NOISE);
        // With a lower floor the same interval would count.
        assertThat(Verdict.decide(r, 0.02, true)).isEqualTo(Verdict.FASTER);
    }

    @Test
    void aChangeBelowARunsOwnScatterIsWithinNoise() {
        // One low repeat makes A scatter by 13 %: a 10 % shift, though every B sample is above every A sample, is not called.
        double[] a = {870, 1000, 1001, 1002, 1003};
        double[] b = {1100, 1101, 1102, 1103, 1104};
        RatioInterval r = RatioInterval.of(a, b);
        assertThat(r.excludesOne()).isTrue();
        assertThat(Verdict.relativeSpread(a)).isCloseTo(133 / 1001.0, within(1e-12));
        // The floor adds both runs' scatter: 133 / 1001 for A, 4 / 1102 for B.
        assertThat(Verdict.noiseFloor(a, b, Verdict.MIN_EFFECT)).isCloseTo(133 / 1001.0 + 4 / 1102.0, within(1e-12));
        assertThat(Verdict.of(a, b, true)).isEqualTo(Verdict.WITHIN_NOISE);
        // Without the scatter the same shift is a change.
        assertThat(Verdict.of(A, times(A, 1.10), true)).isEqualTo(Verdict.FASTER);
        assertThat(Verdict.noiseFloor(A, A, Verdict.MIN_EFFECT)).isEqualTo(Math.max(Verdict.MIN_EFFECT, 2 * Verdict.relativeSpread(A)));
        assertThat(Verdict.relativeSpread(new double[] {5})).isZero();
    }

    /**
     * Why the floor: many figures compared at once. Two runs of the same server (A/A), 5 repeats
     * each with 3 % lognormal scatter, 3000 figures: the interval alone calls about 3 % of them a
     * change (its coverage is 96.8 %); with the floor, almost none.
     */
    @Test
    void anAaComparisonCallsAlmostNothing() {
        Random random = new Random(7);
        int figures = 3000;
        int byInterval = 0;
        int byVerdict = 0;
        for (int f = 0; f < figures; f++) {
            double[] a = new double[5];
            double[] b = new double[5];
            for (int i = 0; i < 5; i++) {
                a[i] = 1000 * Math.exp(0.03 * random.nextGaussian());
                b[i] = 1000 * Math.exp(0.03 * random.nextGaussian());
            }
            if (RatioInterval.of(a, b).excludesOne()) {
                byInterval++;
            }
            if (Verdict.of(a, b, true).changed()) {
                byVerdict++;
            }
        }
        assertThat(byInterval).isBetween(figures / 60, figures / 15);
        assertThat(byVerdict).isLessThan(figures / 500);
    }
}
