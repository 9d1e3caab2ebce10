package org.testbed.runfolder.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The ratio B/A of one figure of two steps measured in the same run, from windows paired in time:
 * window i of fork f of B over window i of fork f of A. When a run interleaves its variants, a
 * round's two windows are seconds apart, so whatever the machine did at the time (a neighbour, the
 * host's other tenants, heat) is in both and cancels in their ratio; the ratios' spread is then
 * the servers' own noise, not the machine's drift (Abedi and Brecht's randomized multiple
 * interleaved trials; Bulej et al.'s duet benchmarking judges such pairs by their ratio too).
 *
 * <p>The ratios are taken on the log scale and grouped by fork, and their centre and interval come
 * from {@link ForkedSamples#estimate}: a fork's JVMs of A and B stay the same over its rounds, so
 * their ratio holds those two JVMs' own offset, and the fork, not the round, is the unit of
 * replication, with the rounds pooled in when the forks do not differ beyond the rounds' scatter.
 * Paired windows of a run that did not interleave are paired all the same (the interval is still
 * honest: it comes from the ratios' own spread), only they share less.
 */
public final class PairedRatio {
    /** Fewer pairs than this give no ratio: one pair has no spread to judge it by. */
    public static final int MIN_PAIRS = 2;

    private PairedRatio() {
    }

    /** One window's figure: its fork (1-based), its round or iteration within the fork, and the figure. */
    public record Window(int fork, int round, double value) {
    }

    /**
     * B/A from the windows of {@code a} and {@code b} that share a fork and round, each usable (finite
     * and positive) on both sides; empty with fewer than {@link #MIN_PAIRS} pairs.
     */
    public static Optional<RatioInterval> of(List<Window> a, List<Window> b) {
        List<double[]> forks = ratiosByFork(a, b);
        int pairs = forks.stream().mapToInt(f -> f.length).sum();
        if (pairs < MIN_PAIRS) {
            return Optional.empty();
        }
        ForkedSamples.Estimate e = ForkedSamples.estimate(forks);
        double[] ci = e.interval();
        return Optional.of(new RatioInterval(e.centre(), ci[0], ci[1], e.hasNoiseEstimate() ? ForkedSamples.LEVEL : 0,
                pairs, pairs));
    }

    /**
     * The verdict's noise floor for a paired ratio: the larger of {@code minEffect} and half the paired
     * ratios' own range ({@link Verdict#relativeSpread}), about as far as one pair strays from their
     * middle. Two steps' separate scatters added up ({@link Verdict#noiseFloor}) guard a comparison of
     * two runs, where a re-run lands apart from the first, and they hold the machine's drift: with
     * windows scattering 10 % that floor was 60 %, and gaps of 1.6x were called ties. Two steps of one
     * run share their rounds; what is left to guard against is the scatter of the ratios themselves.
     */
    public static double noiseFloor(List<Window> a, List<Window> b, double minEffect) {
        double[] all = ratiosByFork(a, b).stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        return Math.max(minEffect, Verdict.relativeSpread(all) / 2);
    }

    /** B's window over A's for every fork and round both have, grouped by fork. */
    static List<double[]> ratiosByFork(List<Window> a, List<Window> b) {
        Map<Long, Double> byKey = new HashMap<>();
        for (Window w : a) {
            if (usable(w.value())) {
                byKey.put(key(w), w.value());
            }
        }
        // A window measured again (a retake on a slow machine) keeps its fork and round: the last one counts.
        Map<Long, Window> lastOfB = new java.util.LinkedHashMap<>();
        for (Window w : b) {
            if (usable(w.value())) {
                lastOfB.put(key(w), w);
            }
        }
        Map<Integer, List<Double>> ratios = new TreeMap<>();
        for (Window w : lastOfB.values()) {
            Double other = byKey.get(key(w));
            if (other != null) {
                ratios.computeIfAbsent(w.fork(), f -> new ArrayList<>()).add(w.value() / other);
            }
        }
        List<double[]> forks = new ArrayList<>();
        for (List<Double> fork : ratios.values()) {
            forks.add(fork.stream().mapToDouble(Double::doubleValue).toArray());
        }
        return forks;
    }

    private static long key(Window w) {
        return ((long) w.fork() << 32) | (w.round() & 0xffffffffL);
    }

    private static boolean usable(double v) {
        return Double.isFinite(v) && v > 0;
    }
}
