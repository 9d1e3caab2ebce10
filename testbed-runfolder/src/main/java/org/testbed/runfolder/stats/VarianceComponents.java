package org.testbed.runfolder.stats;

import java.util.Arrays;
import java.util.List;

/**
 * How a step's samples scatter at each level of the measurement, on the log scale: between JVMs
 * (forks) and between the iterations of one JVM. Kalibera and Jones ("Rigorous Benchmarking in
 * Reasonable Time", ISMM 2013) estimate these components from the run itself and spend the next
 * repetitions at the level where they buy the most precision per second: a fork costs a start and
 * a warm-up, an iteration only its window, so more iterations help only while the iterations'
 * scatter is a large part of a fork mean's variance.
 *
 * <p>With F forks of n̄ iterations (n̄ the harmonic mean of their counts), the fork means scatter
 * by s<sub>b</sub>² = σ<sub>f</sub>² + σ<sub>w</sub>²/n̄ (one-way random-effects model), so
 * σ<sub>w</sub>² is the iterations' pooled variance and σ<sub>f</sub>² = max(0, s<sub>b</sub>² −
 * σ<sub>w</sub>²/n̄).
 *
 * @param forkVariance σ<sub>f</sub>²: the spread between JVMs, beyond what their iterations explain; NaN with
 *                     fewer than two forks
 * @param iterationVariance σ<sub>w</sub>²: the spread of one JVM's iterations; NaN without a fork of two or more
 * @param forks forks with usable samples
 * @param iterations the harmonic mean of their iteration counts
 */
public record VarianceComponents(double forkVariance, double iterationVariance, int forks, double iterations) {

    public static final VarianceComponents NONE = new VarianceComponents(Double.NaN, Double.NaN, 0, 0);

    /** The components of one figure's samples, grouped by fork. */
    public static VarianceComponents of(List<double[]> samplesByFork) {
        double[] means = ForkedSamples.logMeans(samplesByFork);
        List<double[]> logs = samplesByFork.stream()
                .map(f -> Arrays.stream(f).filter(v -> v > 0 && Double.isFinite(v)).map(Math::log).toArray())
                .filter(l -> l.length > 0).toList();
        int f = logs.size();
        if (f == 0) {
            return NONE;
        }
        double within = 0;
        int withinDf = 0;
        double inverseCounts = 0;
        for (int i = 0; i < f; i++) {
            for (double y : logs.get(i)) {
                within += (y - means[i]) * (y - means[i]);
            }
            withinDf += logs.get(i).length - 1;
            inverseCounts += 1.0 / logs.get(i).length;
        }
        double n = f / inverseCounts;
        double iterationVariance = withinDf > 0 ? within / withinDf : Double.NaN;
        if (f < 2) {
            return new VarianceComponents(Double.NaN, iterationVariance, f, n);
        }
        double centre = Arrays.stream(means).average().orElseThrow();
        double between = Arrays.stream(means).map(m -> (m - centre) * (m - centre)).sum() / (f - 1);
        double forkVariance = Math.max(0, between - (Double.isNaN(iterationVariance) ? 0 : iterationVariance / n));
        return new VarianceComponents(forkVariance, iterationVariance, f, n);
    }

    /** The spread between JVMs as a standard deviation in per cent (log scale, about the coefficient of variation). */
    public double forkSdPct() {
        return 100 * Math.sqrt(forkVariance);
    }

    /** The spread of one JVM's iterations as a standard deviation in per cent. */
    public double iterationSdPct() {
        return 100 * Math.sqrt(iterationVariance);
    }

    /**
     * The iterations per fork that buy a given precision at the least time (Kalibera and Jones): the
     * variance of the centre is (σ<sub>f</sub>² + σ<sub>w</sub>²/n) / F and a fork costs
     * {@code forkSeconds} (its start and warm-up) plus n × {@code iterationSeconds}, so the cost for a
     * given variance is least at n = √((forkSeconds / iterationSeconds) · (σ<sub>w</sub>² / σ<sub>f</sub>²)),
     * kept within {@code [1, most]}. Without both components known, {@code fallback}.
     */
    public int optimalIterations(double forkSeconds, double iterationSeconds, int fallback, int most) {
        if (!(iterationVariance >= 0) || !(forkVariance >= 0) || !(iterationSeconds > 0) || !(forkSeconds > 0)) {
            return fallback;
        }
        if (forkVariance == 0) {
            return most;
        }
        double n = Math.sqrt(forkSeconds / iterationSeconds * iterationVariance / forkVariance);
        return (int) Math.max(1, Math.min(most, Math.round(n)));
    }
}
