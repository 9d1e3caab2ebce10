package org.testbed.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RatioIntervalTest {

    @Test
    void identicalSamplesGiveOneAndAnIntervalAroundIt() {
        double[] a = {1000, 1020, 980, 1010, 990};
        RatioInterval r = RatioInterval.of(a, a.clone());
        assertThat(r.ratio()).isEqualTo(1.0);
        assertThat(r.ciLow()).isLessThan(1);
        assertThat(r.ciHigh()).isGreaterThan(1);
        assertThat(r.excludesOne()).isFalse();
        assertThat(r.nA()).isEqualTo(5);
        assertThat(r.nB()).isEqualTo(5);
        assertThat(r.confidence()).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void disjointShiftedSamplesExcludeOneAt95Percent() {
        double[] a = {100, 101, 102, 103, 104};
        double[] b = {120, 121, 122, 123, 124};
        RatioInterval r = RatioInterval.of(a, b);
        // 5 x 5: C = 3, coverage 1 − 2·4/252.
        assertThat(RatioInterval.criticalRank(5, 5)).isEqualTo(3);
        assertThat(r.confidence()).isCloseTo(1 - 8 / 252.0, within(1e-12));
        assertThat(r.excludesOne()).isTrue();
        assertThat(r.ratio()).isCloseTo(122 / 102.0, within(0.002));
        // The interval ends are the 3rd smallest and 3rd largest pairwise ratios.
        double[] ratios = new double[25];
        int i = 0;
        for (double x : a) {
            for (double y : b) {
                ratios[i++] = y / x;
            }
        }
        Arrays.sort(ratios);
        assertThat(r.ciLow()).isCloseTo(ratios[2], within(1e-12));
        assertThat(r.ciHigh()).isCloseTo(ratios[22], within(1e-12));
    }

    @Test
    void threeSamplesASideGiveTheFullRangeAt90Percent() {
        RatioInterval r = RatioInterval.of(new double[] {100, 102, 104}, new double[] {80, 81, 82});
        assertThat(RatioInterval.criticalRank(3, 3)).isEqualTo(1);
        assertThat(r.confidence()).isCloseTo(0.9, within(1e-12));
        assertThat(r.ciLow()).isCloseTo(80 / 104.0, within(1e-12));
        assertThat(r.ciHigh()).isCloseTo(82 / 100.0, within(1e-12));
        assertThat(r.excludesOne()).isTrue();
    }

    @Test
    void twoSamplesASideReachTwoThirds() {
        RatioInterval r = RatioInterval.of(new double[] {1, 2}, new double[] {3, 4});
        assertThat(r.confidence()).isCloseTo(2 / 3.0, within(1e-12));
        assertThat(r.ciLow()).isCloseTo(1.5, within(1e-12));
        assertThat(r.ciHigh()).isCloseTo(4, within(1e-12));
    }

    @Test
    void theEstimateIsTheMedianPairwiseRatio() {
        RatioInterval r = RatioInterval.of(new double[] {1, 2, 4}, new double[] {2, 4, 8});
        assertThat(r.ratio()).isCloseTo(2, within(1e-12));
    }

    @Test
    void theExactNullDistributionCountsArrangements() {
        // n = m = 3: 20 arrangements, U = 0..9 in 1, 1, 2, 3, 3, 3, 3, 2, 1, 1 ways.
        double[] p = RatioInterval.uPmf(3, 3);
        double[] ways = {1, 1, 2, 3, 3, 3, 3, 2, 1, 1};
        for (int u = 0; u < ways.length; u++) {
            assertThat(p[u]).isCloseTo(ways[u] / 20, within(1e-15));
        }
        assertThat(Arrays.stream(RatioInterval.uPmf(7, 4)).sum()).isCloseTo(1, within(1e-12));
        assertThat(RatioInterval.uPmf(1, 4)).containsExactly(0.2, 0.2, 0.2, 0.2, 0.2);
    }

    @Test
    void theNormalApproximationAgreesWithTheExactCountWhereTheyMeet() {
        int n = 50;
        int m = 50;
        double[] exact = RatioInterval.uCdf(n, m);
        double mean = n * m / 2.0;
        double sd = Math.sqrt(n * m * (n + m + 1) / 12.0);
        for (int u = 0; u <= n * m; u += 25) {
            assertThat(RatioInterval.Normal.cdf((u + 0.5 - mean) / sd)).isCloseTo(exact[u], within(0.003));
        }
        // Above the limit the approximation is used: C is the largest rank reaching 95 %, about mean − 1.96 sd.
        int c = RatioInterval.criticalRank(60, 60);
        assertThat(RatioInterval.coverage(60, 60, c)).isGreaterThanOrEqualTo(0.95);
        assertThat(RatioInterval.coverage(60, 60, c + 1)).isLessThan(0.95);
        assertThat((double) c).isCloseTo(1800 - 1.96 * Math.sqrt(36300) + 0.5, within(1.0));
        assertThat(RatioInterval.Normal.cdf(1.959964)).isCloseTo(0.975, within(1e-6));
    }

    @Test
    void nonPositiveAndMissingValuesAreIgnored() {
        RatioInterval r = RatioInterval.of(new double[] {0, -5, Double.NaN, 100, 100}, new double[] {200, 200, Double.NaN});
        assertThat(r.nA()).isEqualTo(2);
        assertThat(r.nB()).isEqualTo(2);
        assertThat(r.ratio()).isCloseTo(2, within(1e-12));
        RatioInterval none = RatioInterval.of(new double[] {0}, new double[] {5, 6});
        assertThat(none.ratio()).isNaN();
        assertThat(none.nA()).isZero();
    }

    @Test
    void aSingleFigureASideIsAPointWithoutInterval() {
        RatioInterval one = RatioInterval.of(new double[] {100}, new double[] {150});
        assertThat(one.ratio()).isCloseTo(1.5, within(1e-12));
        assertThat(one.confidence()).isZero();
        RatioInterval p = RatioInterval.pointOnly(150, 100);
        assertThat(p.ratio()).isEqualTo(1.5);
        assertThat(p.ciLow()).isNaN();
        assertThat(p.excludesOne()).isFalse();
        assertThat(RatioInterval.pointOnly(1, 0).ratio()).isNaN();
    }
}
