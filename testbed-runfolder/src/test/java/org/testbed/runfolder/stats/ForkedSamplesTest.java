package org.testbed.runfolder.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.testbed.runfolder.stats.SyntheticForks.forks;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ForkedSamplesTest {

    @Test
    void identicalRunsGiveOneWithAnIntervalAroundIt() {
        List<double[]> a = List.of(new double[] {1000, 1010, 990}, new double[] {1020, 1000, 1030});
        RatioInterval r = ForkedSamples.ratio(ForkedSamples.estimate(a), ForkedSamples.estimate(a));
        assertThat(r.ratio()).isCloseTo(1.0, within(1e-12));
        assertThat(r.ciLow()).isLessThan(1);
        assertThat(r.ciHigh()).isGreaterThan(1);
        assertThat(r.excludesOne()).isFalse();
        assertThat(r.nA()).isEqualTo(6);
        assertThat(r.confidence()).isEqualTo(ForkedSamples.LEVEL);
    }

    @Test
    void theForksATargetNeedsAreProjectedFromOneForkMeansScatter() {
        // JVMs 7 % apart (a fork mean's standard deviation on the log scale), two forks, one degree of freedom.
        ForkedSamples.Estimate two = new ForkedSamples.Estimate(0, 0.07 * 0.07 / 2, 1, 2, 6);
        // Eleven forks: t(10) = 2.228 times 0.07 / sqrt(11) is 4.7 % on the log scale, under log(1.05) = 4.9 %; ten give 5.0 %.
        assertThat(two.forksFor(5, 20)).isEqualTo(11);
        assertThat(two.forksFor(5, 10)).as("beyond the limit").isEqualTo(11);
        assertThat(two.forksFor(200, 20)).as("already within").isEqualTo(2);
        // The same scatter leaning on a pool of ten degrees of freedom: fewer forks, since t is smaller from the start.
        assertThat(new ForkedSamples.Estimate(0, 0.07 * 0.07 / 2, 10, 2, 6).forksFor(5, 20)).isEqualTo(10);
        assertThat(new ForkedSamples.Estimate(0, Double.NaN, 0, 1, 1).forksFor(5, 20)).as("nothing to project from").isEqualTo(21);
    }

    @Test
    void aTenfoldChangeIsOutsideEvenAWideInterval() {
        List<double[]> a = List.of(new double[] {127, 128, 126}, new double[] {131, 130, 129});
        List<double[]> b = List.of(new double[] {1251, 1260, 1249}, new double[] {1240, 1255, 1262});
        RatioInterval r = ForkedSamples.ratio(ForkedSamples.estimate(a), ForkedSamples.estimate(b));
        assertThat(r.ratio()).isCloseTo(9.71, within(0.05));
        // Two forks a side: Welch's t has about 2 degrees of freedom, so the interval is wide, and far from 1.
        assertThat(r.ciLow()).isGreaterThan(8);
        assertThat(r.ciHigh()).isLessThan(11.5);
    }

    @Test
    void theCentreIsTheGeometricMeanOfTheForkMeansEachForkAlike() {
        // Fork means (on the log scale) log 100 and log 400: the centre is 200 however many iterations each has.
        ForkedSamples.Estimate e = ForkedSamples.estimate(List.of(new double[] {100}, new double[] {400, 400, 400, 400}));
        assertThat(e.centre()).isCloseTo(200, within(1e-9));
        assertThat(e.forks()).isEqualTo(2);
        assertThat(e.samples()).isEqualTo(5);
        assertThat(e.df()).isEqualTo(1);
    }

    @Test
    void twoForksOfOneSampleGiveStudentsIntervalWithOneDegreeOfFreedom() {
        ForkedSamples.Estimate e = ForkedSamples.estimate(List.of(new double[] {100}, new double[] {121}));
        // log-centre log 110, fork means ± log(1.1); s² = 2·log(1.1)² / 1; variance of the centre s² / 2.
        double half = 12.7062 * Math.log(1.1);
        double[] ci = e.interval();
        assertThat(ci[0]).isCloseTo(110 * Math.exp(-half), within(0.01));
        assertThat(ci[1]).isCloseTo(110 * Math.exp(half), within(0.1));
    }

    @Test
    void forksThatAgreeByChanceAreStillAsWideAsTheirIterationsScatter() {
        // Both forks average 1000, so their means do not scatter at all; their iterations do (±10 %):
        // the spread between JVMs cannot be below what one JVM's scatter lets it be measured to.
        ForkedSamples.Estimate e = ForkedSamples.estimate(List.of(new double[] {900, 1100}, new double[] {1100, 900}));
        assertThat(e.variance()).isGreaterThan(0);
        double[] ci = e.interval();
        assertThat(ci[0]).isLessThan(900);
        assertThat(ci[1]).isGreaterThan(1100);
    }

    @Test
    void oneForkHasOnlyItsIterationsScatterAndSaysSo() {
        ForkedSamples.Estimate e = ForkedSamples.estimate(List.<double[]>of(new double[] {1000, 1010, 990, 1005}));
        assertThat(e.forks()).isEqualTo(1);
        assertThat(e.df()).isEqualTo(3);
        assertThat(e.hasNoiseEstimate()).isTrue();
    }

    @Test
    void oneSampleHasNoNoiseEstimateAndUnusableSamplesAreIgnored() {
        ForkedSamples.Estimate one = ForkedSamples.estimate(List.of(new double[] {1000, Double.NaN, 0, -5}, new double[] {}));
        assertThat(one.samples()).isEqualTo(1);
        assertThat(one.hasNoiseEstimate()).isFalse();
        assertThat(one.interval()[0]).isNaN();
        RatioInterval r = ForkedSamples.ratio(one, ForkedSamples.ofIndependent(new double[] {900, 1100}));
        assertThat(r.ratio()).isCloseTo(Math.sqrt(900 * 1100) / 1000, within(1e-9));
        assertThat(r.ciLow()).isNaN();
        assertThat(ForkedSamples.ratio(ForkedSamples.estimate(List.of()), one).ratio()).isNaN();
    }

    /**
     * The reason for the method, on synthetic data where the spread between forks dominates: every
     * fresh JVM lands 10 % away from the truth (the JIT's choices), its iterations within 1 % of
     * where it landed. Two runs of the same truth, 3 forks × 5 iterations each, compared 2000
     * times: the fork-level interval holds the true ratio of 1 about 95 % of the time, as it
     * claims. Counting the 15 iterations as independent samples gives an interval that misses
     * nearly half of the time, and would call those A/A pairs a change.
     */
    @Test
    void whenForksDifferMoreThanIterationsTheIntervalStillCoversTheTruth() {
        Random random = new Random(20);
        int trials = 2000;
        int coveredByForks = 0;
        int coveredPooled = 0;
        for (int t = 0; t < trials; t++) {
            List<double[]> a = forks(random, 3, 5, 0.10, 0.01);
            List<double[]> b = forks(random, 3, 5, 0.10, 0.01);
            if (!ratio(a, b).excludesOne()) {
                coveredByForks++;
            }
            if (!RatioInterval.of(flat(a), flat(b)).excludesOne()) {
                coveredPooled++;
            }
        }
        assertThat(coveredByForks / (double) trials).as("coverage fork by fork").isBetween(0.93, 0.97);
        assertThat(coveredPooled / (double) trials).as("coverage with iterations as independent samples").isLessThan(0.6);
    }

    @Test
    void whenForksAgreeTheIterationsNarrowTheInterval() {
        // JVMs that land within 0.2 % of each other, iterations scattered by 1 %: the forks are pooled with
        // their iterations, and 2 forks of 3 iterations (the default profile) tell a 5 % change four times in five
        // (the fifth, the test of a fork effect fires by chance and the fork-level interval is wide).
        Random random = new Random(7);
        int trials = 1000;
        int told = 0;
        for (int t = 0; t < trials; t++) {
            List<double[]> a = forks(random, 2, 3, 0.002, 0.01);
            List<double[]> b = scaled(forks(random, 2, 3, 0.002, 0.01), 1.05);
            if (ratio(a, b).ciLow() > 1) {
                told++;
            }
        }
        assertThat(told / (double) trials).isGreaterThan(0.78);
    }

    @Test
    void poolingWhenForksSeemToAgreeKeepsTheCoverageNearItsLevel() {
        // The risk of pooling: forks that do differ, by as much as iterations scatter, but not visibly in
        // 2 x 3 samples. Coverage of A/A pairs must stay near 95 % all the same.
        Random random = new Random(11);
        int trials = 2000;
        int covered = 0;
        for (int t = 0; t < trials; t++) {
            if (!ratio(forks(random, 2, 3, 0.01, 0.01), forks(random, 2, 3, 0.01, 0.01)).excludesOne()) {
                covered++;
            }
        }
        assertThat(covered / (double) trials).isGreaterThan(0.9);
    }

    private static RatioInterval ratio(List<double[]> a, List<double[]> b) {
        return ForkedSamples.ratio(ForkedSamples.estimate(a), ForkedSamples.estimate(b));
    }

    private static List<double[]> scaled(List<double[]> forks, double factor) {
        return forks.stream().map(f -> java.util.Arrays.stream(f).map(v -> v * factor).toArray()).toList();
    }

    private static double[] flat(List<double[]> forks) {
        return forks.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
    }
}
