package org.testbed.runfolder.stats;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a run spends the forks it adds after its planned ones: repetition placed where the
 * uncertainty is. Every step gets the planned forks; then, one fork at a time, the group of steps
 * that one more fork would measure (one variant under one set of conditions, one scenario) and
 * whose widest interval is furthest beyond its target per second that fork costs is measured again,
 * until every step meets its target, a step has had {@code maxForks}, or the time left cannot pay
 * for the next fork.
 *
 * <p>Why per second of cost: a fork of the mix costs a start and a warm-up of 20–40 s, one of the
 * delay scenario half that, so a delay step twice as far from its target as a mix step is the
 * better buy. Why the widest first rather than the one a fork would narrow most: the width a fork
 * buys depends on where the new JVM lands, which is what the run does not know; a step's distance
 * from its target it does.
 */
public final class ForkAllocation {
    private ForkAllocation() {
    }

    /**
     * One step's distance from its target.
     *
     * @param group what one more fork of it measures: its variant, conditions and scenario
     * @param widthRatio its widest figure's half-width over the target's (1 = exactly at the target; infinite
     *                   when it has no interval yet, a single sample)
     * @param forks the forks it has
     * @param twoModes whether its forks fall in two settled modes ({@link ForkedSamples#twoSettledModes}): more
     *                 forks cannot narrow it, so none is added for it
     */
    public record StepWidth(String group, double widthRatio, int forks, boolean twoModes) {
        public StepWidth(String group, double widthRatio, int forks) {
            this(group, widthRatio, forks, false);
        }

        /** Whether it is wider than its target. */
        public boolean missed() {
            return !(widthRatio <= 1);
        }
    }

    /**
     * A group to measure once more.
     *
     * @param group its name
     * @param widthRatio its widest step's width over the target
     * @param costSeconds what a fork of it costs: a start, its scenario's warm-up and windows
     */
    public record Choice(String group, double widthRatio, double costSeconds) {
        double perSecond() {
            return Double.isInfinite(widthRatio) ? Double.MAX_VALUE / Math.max(costSeconds, 1) : widthRatio / Math.max(costSeconds, 1);
        }
    }

    /**
     * The next group to fork, if any: among the groups with a step beyond its target and under
     * {@code maxForks}, whose fork fits in {@code secondsLeft}, the widest per second of cost.
     *
     * @param costSeconds each group's fork cost; a group without one is not chosen
     */
    public static Optional<Choice> next(List<StepWidth> steps, Map<String, Double> costSeconds, double secondsLeft,
                                        int maxForks) {
        Map<String, Double> widest = new LinkedHashMap<>();
        for (StepWidth s : steps) {
            if (s.missed() && s.forks() < maxForks && !s.twoModes()) {
                double w = Double.isNaN(s.widthRatio()) ? Double.POSITIVE_INFINITY : s.widthRatio();
                widest.merge(s.group(), w, Math::max);
            }
        }
        return widest.entrySet().stream()
                .filter(e -> costSeconds.containsKey(e.getKey()) && costSeconds.get(e.getKey()) <= secondsLeft)
                .map(e -> new Choice(e.getKey(), e.getValue(), costSeconds.get(e.getKey())))
                .max(Comparator.comparingDouble(Choice::perSecond));
    }

    /**
     * A step's distance from its target: the largest half-width among {@code halfWidthsPct} (one per
     * figure the target holds for) over the target's {@code targetPct}; infinite when a figure has no
     * interval (NaN).
     */
    public static double widthRatio(List<Double> halfWidthsPct, double targetPct) {
        double widest = 0;
        for (double h : halfWidthsPct) {
            if (Double.isNaN(h)) {
                return Double.POSITIVE_INFINITY;
            }
            widest = Math.max(widest, h);
        }
        return widest / targetPct;
    }
}
