package org.testbed.runfolder.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Whether a step's JVMs fall in two groups: a server whose forks land at one of two levels (a JIT
 * decision, a pool's size, a hash layout) has no single figure, and more forks narrow the interval
 * of the mean of the two but never make either go away. Said so by name, the user sees two modes,
 * not a long error bar.
 *
 * <p>The rule: sort the forks' means (log scale) and split at the largest gap between neighbours.
 * It is two modes when that gap is wider than four standard errors of a fork mean as its iterations
 * scatter (so it is no chance of the windows) and wider than the range within either side (so it
 * is a gap, not a spread).
 *
 * @param low the lower mode: its forks (1-based, as samples.csv numbers them) and their geometric mean
 * @param high the higher mode
 */
public record Modes(Mode low, Mode high) {

    /**
     * @param forks the forks' numbers
     * @param centre the geometric mean of their means
     */
    public record Mode(List<Integer> forks, double centre) {
    }

    /**
     * The two modes of {@code samplesByFork} (each its fork's samples; {@code forkNumbers} their
     * numbers, in the same order), or empty when the forks do not split so.
     */
    public static Optional<Modes> of(List<double[]> samplesByFork, List<Integer> forkNumbers) {
        List<double[]> usable = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < samplesByFork.size(); i++) {
            if (ForkedSamples.logMeans(List.of(samplesByFork.get(i))).length == 1) {
                usable.add(samplesByFork.get(i));
                numbers.add(forkNumbers.get(i));
            }
        }
        if (usable.size() < 2) {
            return Optional.empty();
        }
        double[] means = ForkedSamples.logMeans(usable);
        VarianceComponents c = VarianceComponents.of(usable);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < means.length; i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingDouble(i -> means[i]));
        int split = -1;
        double gap = 0;
        for (int k = 1; k < order.size(); k++) {
            double g = means[order.get(k)] - means[order.get(k - 1)];
            if (g > gap) {
                gap = g;
                split = k;
            }
        }
        if (split < 0) {
            return Optional.empty(); // every fork at the same level
        }
        double lowRange = means[order.get(split - 1)] - means[order.get(0)];
        double highRange = means[order.get(order.size() - 1)] - means[order.get(split)];
        double se = Double.isNaN(c.iterationVariance()) ? 0 : Math.sqrt(c.iterationVariance() / c.iterations());
        if (gap <= 4 * se || gap <= lowRange || gap <= highRange || se == 0 && usable.size() < 3) {
            return Optional.empty();
        }
        return Optional.of(new Modes(mode(order.subList(0, split), means, numbers),
                mode(order.subList(split, order.size()), means, numbers)));
    }

    private static Mode mode(List<Integer> indices, double[] means, List<Integer> numbers) {
        double sum = 0;
        List<Integer> forks = new ArrayList<>();
        for (int i : indices) {
            sum += means[i];
            forks.add(numbers.get(i));
        }
        forks.sort(Integer::compare);
        return new Mode(forks, Math.exp(sum / indices.size()));
    }

    /** How far apart the two modes are: the higher's centre over the lower's, minus one, in per cent. */
    public double apartPct() {
        return 100 * (high.centre() / low.centre() - 1);
    }
}
