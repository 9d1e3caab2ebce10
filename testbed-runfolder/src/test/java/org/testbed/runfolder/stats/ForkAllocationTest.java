package org.testbed.runfolder.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ForkAllocationTest {
    /** A default run's mix: ten variants, 2 forks × 2 iterations planned. */
    private static final int STEPS = 10;
    private static final int BIMODAL = 7;
    private static final double TARGET_PCT = 5;
    /** Added forks a run may buy: the default profile's budget over a mix fork's cost. */
    private static final int BUDGET_FORKS = 8;

    @Test
    void theWidestPerSecondOfCostGoesFirst() {
        List<ForkAllocation.StepWidth> steps = List.of(
                new ForkAllocation.StepWidth("vertx|plain|mix", 3.0, 2),
                new ForkAllocation.StepWidth("vertx|plain|delay", 2.0, 2),
                new ForkAllocation.StepWidth("spring|plain|mix", 0.8, 2));
        Map<String, Double> cost = Map.of("vertx|plain|mix", 40.0, "vertx|plain|delay", 20.0, "spring|plain|mix", 40.0);
        assertThat(ForkAllocation.next(steps, cost, 600, 10)).map(ForkAllocation.Choice::group)
                .as("twice as far per second: the delay's 2.0 over 20 s beats the mix's 3.0 over 40 s").contains("vertx|plain|delay");
        assertThat(ForkAllocation.next(steps, cost, 30, 10)).map(ForkAllocation.Choice::group)
                .as("only the delay's fork fits in 30 s").contains("vertx|plain|delay");
        assertThat(ForkAllocation.next(steps, cost, 19, 10)).as("nothing fits").isEmpty();
        assertThat(ForkAllocation.next(steps, cost, 600, 2)).as("every step wider than its target has its most forks").isEmpty();
        assertThat(ForkAllocation.next(List.of(steps.get(2)), cost, 600, 10)).as("a step within its target gets none").isEmpty();
        assertThat(ForkAllocation.next(List.of(new ForkAllocation.StepWidth("one|plain|mix", Double.NaN, 1)), cost, 600, 10))
                .as("a step without an interval is the widest of all, but only a group with a known cost is chosen").isEmpty();
    }

    @Test
    void theWidthRatioIsTheWidestFigureOverTheTarget() {
        assertThat(ForkAllocation.widthRatio(List.of(2.0, 7.5), 5)).isEqualTo(1.5);
        assertThat(ForkAllocation.widthRatio(List.of(2.0, Double.NaN), 5)).isInfinite();
    }

    /**
     * Ten steps of one scenario, nine whose JVMs land 2 % apart and one whose JVMs land in two modes
     * 13 % apart (as vertx's did: 56.4, 57.0, 56.4 k against 49.4, 48.1, 50.8 k), iterations within
     * 1 %: the forks the run adds go to the bimodal step first.
     */
    @Test
    void addedForksGoToTheStepWhoseJvmsDisagree() {
        Random random = new Random(11);
        int[] forksGot = new int[STEPS];
        int bimodalSeen = 0;
        int bimodalForks = 0;
        int runs = 200;
        for (int run = 0; run < runs; run++) {
            List<List<double[]>> steps = plannedRun(random, 1.0);
            double[] means = ForkedSamples.logMeans(steps.get(BIMODAL));
            boolean seen = Math.abs(means[0] - means[1]) > 0.07; // its two planned JVMs landed in different modes
            allocate(random, steps, 1.0);
            for (int s = 0; s < STEPS; s++) {
                forksGot[s] += steps.get(s).size() - 2;
            }
            if (seen) {
                bimodalSeen++;
                bimodalForks += steps.get(BIMODAL).size() - 2;
            }
        }
        double perSteadyStep = 0;
        for (int s = 0; s < STEPS; s++) {
            perSteadyStep += s == BIMODAL ? 0 : forksGot[s] / (double) runs / (STEPS - 1);
        }
        // Where the planned pair showed two levels, forks go there until both modes hold two (more cannot narrow
        // it); a steady step gets one now and then, when its two JVMs happened to land apart.
        double perSeenRun = (double) bimodalForks / bimodalSeen;
        assertThat(perSeenRun).as("added forks of the bimodal step in the %d runs whose planned JVMs disagreed", bimodalSeen)
                .isGreaterThanOrEqualTo(2.0).isGreaterThan(3 * perSteadyStep);
    }

    @Test
    void aaIntervalsOfRunsWithAddedForksStillCoverTheTruth() {
        double[] without = aaCoverage(false);
        double[] with = aaCoverage(true);
        // The nine steady steps: at their 95 %, and not below the planned forks' alone. The bimodal step: JVMs
        // that landed in one mode in both of a run's planned forks look steady and cannot be told (a quarter of
        // the runs); it is no worse for the forks added to it than without them.
        assertThat(with[0]).as("steady steps' A/A coverage with added forks, %.3f without", without[0]).isBetween(0.93, 0.98)
                .isGreaterThanOrEqualTo(without[0] - 0.01);
        assertThat(with[1]).as("the bimodal step's A/A coverage with added forks, %.3f without", without[1])
                .isGreaterThanOrEqualTo(without[1] - 0.05);
    }

    /** The A/A coverage of the ratio's interval over 300 pairs of runs: of the steady steps, and of the bimodal step. */
    private static double[] aaCoverage(boolean addForks) {
        Random random = new Random(12);
        int steady = 0;
        int bimodal = 0;
        int pairs = 300;
        for (int pair = 0; pair < pairs; pair++) {
            List<List<double[]>> a = plannedRun(random, 1.0);
            List<List<double[]>> b = plannedRun(random, 1.0);
            if (addForks) {
                allocate(random, a, 1.0);
                allocate(random, b, 1.0);
            }
            ForkPool poolA = ForkPool.of(a);
            ForkPool poolB = ForkPool.of(b);
            for (int s = 0; s < STEPS; s++) {
                RatioInterval r = ForkedSamples.ratio(ForkedSamples.estimate(a.get(s), poolA.without(a.get(s))),
                        ForkedSamples.estimate(b.get(s), poolB.without(b.get(s))));
                if (!r.excludesOne()) {
                    if (s == BIMODAL) {
                        bimodal++;
                    } else {
                        steady++;
                    }
                }
            }
        }
        return new double[] {(double) steady / (pairs * (STEPS - 1)), (double) bimodal / pairs};
    }

    @Test
    void theBimodalStepsIntervalNarrowsWithItsAddedForks() {
        Random random = new Random(13);
        double before = 0;
        double after = 0;
        for (int run = 0; run < 100; run++) {
            List<List<double[]>> steps = plannedRun(random, 1.0);
            before += estimate(steps, BIMODAL).halfWidthPct();
            allocate(random, steps, 1.0);
            after += estimate(steps, BIMODAL).halfWidthPct();
        }
        assertThat(after).as("mean half-width with the added forks against the planned two").isLessThan(before / 3);
    }

    private static List<List<double[]>> plannedRun(Random random, double scale) {
        List<List<double[]>> steps = new ArrayList<>();
        for (int s = 0; s < STEPS; s++) {
            List<double[]> forks = new ArrayList<>();
            for (int f = 0; f < 2; f++) {
                forks.add(fork(random, s, scale));
            }
            steps.add(forks);
        }
        return steps;
    }

    /** One fork of step {@code s}: 2 iterations, around where its JVM landed. */
    private static double[] fork(Random random, int s, double scale) {
        double landed = s == BIMODAL
                ? (random.nextBoolean() ? 56_600 : 49_400) * Math.exp(0.01 * random.nextGaussian())
                : 30_000 * (1 + s) * Math.exp(0.02 * random.nextGaussian());
        return new double[] {scale * landed * Math.exp(0.01 * random.nextGaussian()),
                scale * landed * Math.exp(0.01 * random.nextGaussian())};
    }

    /** What the precision phase judges a step by: the wider of its interval and the one with the fork as the unit. */
    private static double judged(List<List<double[]>> steps, int s) {
        ForkPool others = ForkPool.of(steps).without(steps.get(s));
        return Math.max(ForkedSamples.estimate(steps.get(s), others).halfWidthPct(),
                ForkedSamples.estimateForkUnit(steps.get(s), others).halfWidthPct());
    }

    private static ForkedSamples.Estimate estimate(List<List<double[]>> steps, int s) {
        return ForkedSamples.estimate(steps.get(s), ForkPool.of(steps).without(steps.get(s)));
    }

    /** The run's precision phase on synthetic steps: every fork costs the same, the budget buys {@value #BUDGET_FORKS}. */
    private static void allocate(Random random, List<List<double[]>> steps, double scale) {
        Map<String, Double> cost = new HashMap<>();
        for (int s = 0; s < STEPS; s++) {
            cost.put("s" + s, 40.0);
        }
        for (int added = 0; added < BUDGET_FORKS; added++) {
            List<ForkAllocation.StepWidth> widths = new ArrayList<>();
            for (int s = 0; s < STEPS; s++) {
                widths.add(new ForkAllocation.StepWidth("s" + s,
                        ForkAllocation.widthRatio(List.of(judged(steps, s)), TARGET_PCT), steps.get(s).size(),
                        ForkedSamples.twoSettledModes(steps.get(s))));
            }
            Optional<ForkAllocation.Choice> next = ForkAllocation.next(widths, cost, 40.0 * (BUDGET_FORKS - added), 10);
            if (next.isEmpty()) {
                return;
            }
            int s = Integer.parseInt(next.get().group().substring(1));
            steps.get(s).add(fork(random, s, scale));
        }
    }
}
