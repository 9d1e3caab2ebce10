package org.testbed.runfolder.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MedianIntervalTest {

    @Test
    void oneSampleHasNoInterval() {
        assertThat(MedianInterval.of(new double[] {42})).isEqualTo(Spread.single(42));
        assertThat(MedianInterval.of(new double[] {Double.NaN, 42, Double.NaN})).isEqualTo(Spread.single(42));
    }

    @Test
    void noSampleIsAllNaN() {
        Spread s = MedianInterval.of(new double[] {Double.NaN});
        assertThat(s.n()).isZero();
        assertThat(s.median()).isNaN();
        assertThat(s.confidence()).isZero();
    }

    @Test
    void threeSamplesGiveTheRangeAt75Percent() {
        Spread s = MedianInterval.of(new double[] {30, 10, 20});
        assertThat(MedianInterval.rank(3)).isEqualTo(1);
        assertThat(s).isEqualTo(new Spread(3, 20, 10, 30, 10, 30, 0.75));
    }

    @Test
    void fiveSamplesGiveTheRangeAt93Point75Percent() {
        Spread s = MedianInterval.of(new double[] {5, 1, 4, 2, 3});
        assertThat(MedianInterval.rank(5)).isEqualTo(1);
        assertThat(s).isEqualTo(new Spread(5, 3, 1, 5, 1, 5, 0.9375));
    }

    @Test
    void sixSamplesReach95PercentWithTheRange() {
        Spread s = MedianInterval.of(new double[] {6, 1, 5, 2, 4, 3});
        assertThat(MedianInterval.rank(6)).isEqualTo(1);
        assertThat(s).isEqualTo(new Spread(6, 3.5, 1, 6, 1, 6, 0.96875));
        // [x(2), x(5)] would be narrower but reaches only 78 %.
        assertThat(MedianInterval.coverage(6, 2)).isCloseTo(1 - 2 * 7 / 64.0, within(1e-15));
    }

    @Test
    void tenSamplesUseTheSecondAndNinthOrderStatistics() {
        double[] x = {10, 3, 7, 1, 9, 4, 6, 2, 8, 5};
        Spread s = MedianInterval.of(x);
        assertThat(MedianInterval.rank(10)).isEqualTo(2);
        assertThat(s.median()).isEqualTo(5.5);
        assertThat(s.min()).isEqualTo(1);
        assertThat(s.max()).isEqualTo(10);
        assertThat(s.ciLow()).isEqualTo(2);
        assertThat(s.ciHigh()).isEqualTo(9);
        assertThat(s.confidence()).isCloseTo(1 - 2 * 11 / 1024.0, within(1e-15)); // 0.978515625
        // The next narrower pair, [x(3), x(8)], falls below 95 %.
        assertThat(MedianInterval.coverage(10, 3)).isCloseTo(1 - 2 * 56 / 1024.0, within(1e-15)); // 0.890625
    }

    @Test
    void largeSamplesGiveTheTextbookRanks() {
        // n = 100: the 95 % interval of the median is [x(40), x(61)].
        assertThat(MedianInterval.rank(100)).isEqualTo(40);
        assertThat(MedianInterval.coverage(100, 40)).isGreaterThanOrEqualTo(0.95);
        assertThat(MedianInterval.coverage(100, 41)).isLessThan(0.95);
        // No underflow for very large n.
        assertThat(MedianInterval.coverage(5000, 2431)).isBetween(0.9, 1.0);
    }

    @Test
    void nanSamplesAreIgnored() {
        Spread s = MedianInterval.of(new double[] {3, Double.NaN, 1, 2});
        assertThat(s).isEqualTo(new Spread(3, 2, 1, 3, 1, 3, 0.75));
        assertThat(MedianInterval.median(new double[] {4, Double.NaN, 1})).isEqualTo(2.5);
    }

    @Test
    void aRankOutsideTheSampleIsRefused() {
        assertThatThrownBy(() -> MedianInterval.coverage(3, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MedianInterval.rank(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
