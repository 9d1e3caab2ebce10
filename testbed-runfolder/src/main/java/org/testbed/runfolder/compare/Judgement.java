package org.testbed.runfolder.compare;

import java.util.Arrays;
import java.util.List;
import org.testbed.runfolder.stats.ForkPool;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.RatioInterval;
import org.testbed.runfolder.stats.Verdict;

/**
 * What compare says about one figure, B against A, whatever the figure is (a step's throughput, an
 * operation's p99): the ratio from both sides' samples grouped by fork ({@link ForkedSamples}), its
 * interval, the noise floor and the {@link Verdict}. One place for the rule, so that a step's
 * figures and its operations' are judged alike.
 *
 * @param ratio the estimate of B/A (from the samples when both sides have two or more, else b / a)
 * @param ciLow the interval's lower end, NaN without a noise estimate
 * @param ciHigh the interval's upper end, NaN without a noise estimate
 * @param confidence the interval's coverage, 0..1 (0 without an interval)
 * @param nA how many usable samples of A
 * @param nB how many usable samples of B
 * @param noiseFloor the smallest change the verdict would call, NaN without a noise estimate
 * @param verdict faster, slower, within noise or no noise estimate
 */
public record Judgement(double ratio, double ciLow, double ciHigh, double confidence, int nA, int nB, double noiseFloor,
                        Verdict verdict) {

    /**
     * One figure: the ratio, interval and verdict from the samples grouped by fork when each side
     * has at least two usable ones (positive, finite), each side leaning on the spread between forks
     * of its run's other steps ({@link ForkedSamples#estimate(List, ForkPool)}); else b / a and
     * {@link Verdict#NO_NOISE_ESTIMATE}. The noise floor is {@link Verdict#noiseFloor}'s, from all the
     * samples of each side.
     *
     * @param higherIsBetter whether B above A is better (throughput) or worse (latency, CPU, cost)
     * @param minEffect the smallest relative change ever called for this figure
     * @param a A's figure as shown, for the ratio without samples
     * @param b B's figure as shown
     */
    public static Judgement of(boolean higherIsBetter, double minEffect, double a, double b, List<double[]> forksA,
                               List<double[]> forksB, ForkPool othersA, ForkPool othersB) {
        RatioInterval r = ForkedSamples.ratio(ForkedSamples.estimate(forksA, othersA), ForkedSamples.estimate(forksB, othersB));
        if (r.nA() < 2 || r.nB() < 2) {
            return new Judgement(Comparison.ratio(b, a), Double.NaN, Double.NaN, 0, r.nA(), r.nB(), Double.NaN,
                    Verdict.NO_NOISE_ESTIMATE);
        }
        double floor = Verdict.noiseFloor(flat(forksA), flat(forksB), minEffect);
        return new Judgement(r.ratio(), r.ciLow(), r.ciHigh(), r.confidence(), r.nA(), r.nB(), floor,
                Verdict.decide(r, floor, higherIsBetter));
    }

    /**
     * One figure of two steps of one run judged by the ratio of their windows paired by fork and round
     * ({@link org.testbed.runfolder.stats.PairedRatio}): the same verdict rule, on that ratio's interval, with
     * the paired ratios' own noise floor ({@link org.testbed.runfolder.stats.PairedRatio#noiseFloor}).
     */
    public static Judgement paired(boolean higherIsBetter, RatioInterval r, double floor) {
        return new Judgement(r.ratio(), r.ciLow(), r.ciHigh(), r.confidence(), r.nA(), r.nB(), floor,
                Verdict.decide(r, floor, higherIsBetter));
    }

    static double[] flat(List<double[]> forks) {
        return forks.stream().flatMapToDouble(Arrays::stream).toArray();
    }
}
