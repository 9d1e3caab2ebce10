package org.testbed.runfolder.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Samples of a figure as forks × iterations would give them, for the interval tests' simulations. */
final class SyntheticForks {
    private SyntheticForks() {
    }

    /**
     * {@code forks} JVMs, each landing at 1000 times a log-normal factor of scatter {@code between},
     * each measured {@code iterations} times with a log-normal scatter {@code within} around where it landed.
     */
    static List<double[]> forks(Random random, int forks, int iterations, double between, double within) {
        List<double[]> out = new ArrayList<>();
        for (int f = 0; f < forks; f++) {
            double landed = 1000 * Math.exp(between * random.nextGaussian());
            double[] fork = new double[iterations];
            for (int i = 0; i < iterations; i++) {
                fork[i] = landed * Math.exp(within * random.nextGaussian());
            }
            out.add(fork);
        }
        return out;
    }
}
