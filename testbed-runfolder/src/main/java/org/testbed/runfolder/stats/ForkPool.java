package org.testbed.runfolder.stats;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The spread between forks that the steps of one run share: for each step measured in two forks
 * or more, the squared deviations of its forks' mean logs from their mean, summed over the steps,
 * with one degree of freedom per fork beyond the first of each step.
 *
 * <p>Why: two forks give a step's own estimate of the JVM-to-JVM spread one degree of freedom,
 * and Student's t for one degree of freedom is 12.7, so a step whose two JVMs differ by 12 % got
 * an interval of [13 k, 63 k] req/s around 29 k. Steps of one scenario in one run share the
 * machine, the load and the measuring, and on the log scale their JVMs scatter alike (in a default
 * run here, the two forks of the ten variants differed by 0 to 16 %): pooled over the run's other
 * steps, the same spread is known with ten degrees of freedom instead of one. A step is pooled only
 * when its own spread is not beyond what the pool explains ({@link ForkedSamples#estimate(List,
 * ForkPool)}), so a variant whose JVMs disagree more than the others' keeps its own, wide interval.
 *
 * @param sumOfSquares Σ over steps and their forks of (fork mean log − step's mean of them)²
 * @param df Σ over steps of (forks − 1)
 */
public record ForkPool(double sumOfSquares, int df) {
    /** No other steps to pool with: each step stands alone. */
    public static final ForkPool NONE = new ForkPool(0, 0);

    /** The pool of these steps, each given as its samples grouped by fork. */
    public static ForkPool of(Collection<List<double[]>> steps) {
        double ss = 0;
        int df = 0;
        for (List<double[]> step : steps) {
            ForkPool one = ofStep(step);
            ss += one.sumOfSquares;
            df += one.df;
        }
        return new ForkPool(ss, df);
    }

    /** One step's contribution; nothing for a step with fewer than two usable forks. */
    static ForkPool ofStep(List<double[]> forks) {
        double[] means = ForkedSamples.logMeans(forks);
        if (means.length < 2) {
            return NONE;
        }
        double centre = Arrays.stream(means).average().orElseThrow();
        double ss = Arrays.stream(means).map(m -> (m - centre) * (m - centre)).sum();
        return new ForkPool(ss, means.length - 1);
    }

    /** The pool of the other steps: this one's contribution taken out, so that it is tested against the rest. */
    public ForkPool without(List<double[]> forks) {
        ForkPool own = ofStep(forks);
        if (own.df == 0) {
            return this;
        }
        return new ForkPool(Math.max(0, sumOfSquares - own.sumOfSquares), Math.max(0, df - own.df));
    }

    /** The pooled variance of a fork mean's log; NaN without any degree of freedom. */
    public double meanSquare() {
        return df == 0 ? Double.NaN : sumOfSquares / df;
    }
}
