package org.testbed.runfolder.summary;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.ForkPool;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.PairedRatio;
import org.testbed.runfolder.stats.RatioInterval;
import org.testbed.runfolder.stats.Verdict;

/**
 * One scenario's level under one set of conditions, its variants ranked by throughput, with tie
 * groups: a variant shares the rank of its group's leader when the run's own compare rule would
 * not call the difference between them a change (the ratio's interval, fork by fork, holds 1 or the
 * change is within the noise floor: {@link Verdict}). A step measured once has no noise estimate;
 * it shares a rank only within the smallest change compare ever calls ({@link Verdict#MIN_EFFECT}),
 * so 5,001 and 5,000 req/s at an open model's rate are one rank, and a larger gap may still be noise
 * ({@link #told} false).
 *
 * @param scenario the scenario
 * @param level {@code c=64}, {@code 5000/s}
 * @param conditions {@code plain}, {@code tls}, ...
 * @param places the variants, best first
 * @param told whether the ties were decided by the noise (every step had two samples or more); if not,
 *             only differences under the minimum effect tie
 */
public record Ranking(String scenario, String level, String conditions, List<Place> places, boolean told) {

    /**
     * One variant's place.
     *
     * @param rank 1 for the best; variants that tie share one
     * @param variant the variant
     * @param mode sync, async or virtual
     * @param rps throughput (the median of its samples)
     * @param rpsLow its interval's lower end, NaN without one
     * @param rpsHigh its upper end
     * @param rpsHalfWidthPct the smallest change its throughput can tell, per cent; NaN without an interval
     * @param requestsPerCpuSecond efficiency: requests served per second of the server's CPU (1 / CPU per request)
     * @param efficiencyOfBest that over the best of the level's, 0..1
     * @param p99Ms p99 latency
     * @param costPerMillion what a million requests cost, NaN for a run without a price
     * @param saturated whether the load side was saturated: the figure is then a lower bound
     * @param toAbove its throughput over the variant's ranked just above it, with the interval of that ratio: from
     *                windows paired in time ({@link PairedRatio}) when the run measured them in the same rounds, else
     *                from the two steps' samples; NaN for the first
     * @param pairedToAbove whether {@code toAbove} came from paired windows
     */
    public record Place(int rank, String variant, String mode, double rps, double rpsLow, double rpsHigh,
                        double rpsHalfWidthPct, double requestsPerCpuSecond, double efficiencyOfBest, double p99Ms,
                        double costPerMillion, boolean saturated, RatioInterval toAbove, boolean pairedToAbove) {
    }

    /** The rankings of a run, one per scenario, level and conditions, in the order results.csv first has them. */
    public static List<Ranking> of(List<ResultRow> rows, Map<ResultRow.StepKey, StepRecord> steps,
                                   Map<ResultRow.StepKey, List<SampleRecord>> samples) {
        Map<String, List<ResultRow>> levels = new LinkedHashMap<>();
        for (ResultRow r : rows) {
            StepRecord step = steps.get(r.key());
            if (step != null && !step.setup().sla().isEmpty()) {
                continue; // a capacity search's probe: its capacity is the figure, not this rate
            }
            levels.computeIfAbsent(r.scenario() + "|" + r.key().level() + "|" + r.conditions().label(), k -> new ArrayList<>()).add(r);
        }
        Map<String, ForkPool> pools = pools(rows, samples);
        List<Ranking> rankings = new ArrayList<>();
        for (List<ResultRow> level : levels.values()) {
            rankings.add(rank(level, steps, samples, pools.get(group(level.get(0).key()))));
        }
        return rankings;
    }

    private static Ranking rank(List<ResultRow> level, Map<ResultRow.StepKey, StepRecord> steps,
                                Map<ResultRow.StepKey, List<SampleRecord>> samples, ForkPool pool) {
        List<ResultRow> sorted = level.stream().sorted(Comparator.comparingDouble((ResultRow r) -> r.throughput().rps()).reversed())
                .toList();
        double best = sorted.stream().mapToDouble(Ranking::requestsPerCpuSecond).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        List<Place> places = new ArrayList<>();
        boolean told = true;
        ResultRow leader = null;
        int rank = 0;
        for (int i = 0; i < sorted.size(); i++) {
            ResultRow r = sorted.get(i);
            List<double[]> forks = rpsByFork(samples.getOrDefault(r.key(), List.of()));
            told &= forks.stream().mapToInt(f -> f.length).sum() >= 2;
            if (leader == null || !tied(leader, r, samples, pool)) {
                leader = r;
                rank = i + 1;
            }
            ResultRow above = i == 0 ? null : sorted.get(i - 1);
            Optional<RatioInterval> paired = above == null ? Optional.empty() : paired(above, r, samples);
            RatioInterval toAbove = above == null ? RatioInterval.pointOnly(Double.NaN, Double.NaN)
                    : paired.orElseGet(() -> unpaired(above, r, samples, pool));
            StepRecord step = steps.get(r.key());
            double low = step == null ? Double.NaN : step.repeats().rps().ciLow();
            double high = step == null ? Double.NaN : step.repeats().rps().ciHigh();
            boolean interval = step != null && step.repeats().rps().confidence() > 0;
            double efficiency = requestsPerCpuSecond(r);
            places.add(new Place(rank, r.variant(), r.mode(), r.throughput().rps(), interval ? low : Double.NaN,
                    interval ? high : Double.NaN, step == null ? Double.NaN : step.repeats().rps().halfWidthPct(), efficiency,
                    efficiency / best, r.latency().p99Ms(), step == null ? Double.NaN : step.cost().perMillion(),
                    step != null && step.load().saturated(), toAbove, paired.isPresent()));
        }
        ResultRow first = sorted.get(0);
        return new Ranking(first.scenario(), first.key().level(), first.conditions().label(), places, told);
    }

    /** Whether the run's compare rule would call the throughput of {@code b} no change from {@code a}'s. */
    static boolean tied(ResultRow a, ResultRow b, Map<ResultRow.StepKey, List<SampleRecord>> samples, ForkPool pool) {
        List<double[]> fa = rpsByFork(samples.getOrDefault(a.key(), List.of()));
        List<double[]> fb = rpsByFork(samples.getOrDefault(b.key(), List.of()));
        if (fa.stream().mapToInt(f -> f.length).sum() < 2 || fb.stream().mapToInt(f -> f.length).sum() < 2) {
            // No noise estimate, but compare never calls a change under its minimum effect, whatever the noise.
            double ratio = b.throughput().rps() / a.throughput().rps();
            return Math.abs(ratio - 1) < Verdict.MIN_EFFECT;
        }
        // Windows of the same rounds are judged by their paired ratios: the machine's drift cancels in each.
        Optional<RatioInterval> paired = paired(a, b, samples);
        if (paired.isPresent()) {
            double floor = PairedRatio.noiseFloor(windows(samples.getOrDefault(a.key(), List.of())),
                    windows(samples.getOrDefault(b.key(), List.of())), Verdict.MIN_EFFECT);
            return !Verdict.decide(paired.get(), floor, true).changed();
        }
        RatioInterval r = unpaired(a, b, samples, pool);
        double floor = Verdict.noiseFloor(flat(fa), flat(fb), Verdict.MIN_EFFECT);
        return !Verdict.decide(r, floor, true).changed();
    }

    /** B/A of throughput from the two steps' windows paired by fork and round, when they have enough. */
    static Optional<RatioInterval> paired(ResultRow a, ResultRow b, Map<ResultRow.StepKey, List<SampleRecord>> samples) {
        return PairedRatio.of(windows(samples.getOrDefault(a.key(), List.of())),
                windows(samples.getOrDefault(b.key(), List.of())));
    }

    private static RatioInterval unpaired(ResultRow a, ResultRow b, Map<ResultRow.StepKey, List<SampleRecord>> samples,
                                          ForkPool pool) {
        List<double[]> fa = rpsByFork(samples.getOrDefault(a.key(), List.of()));
        List<double[]> fb = rpsByFork(samples.getOrDefault(b.key(), List.of()));
        if (fa.isEmpty() || fb.isEmpty()) {
            return RatioInterval.pointOnly(b.throughput().rps(), a.throughput().rps());
        }
        return ForkedSamples.ratio(ForkedSamples.estimate(fa, pool.without(fa)), ForkedSamples.estimate(fb, pool.without(fb)));
    }

    private static List<PairedRatio.Window> windows(List<SampleRecord> samples) {
        return samples.stream().map(s -> new PairedRatio.Window(s.repeat(), s.iteration(), s.figures().rps())).toList();
    }

    /** Requests per second of the server's CPU: 1000 / CPU ms per request; NaN when not known. */
    static double requestsPerCpuSecond(ResultRow r) {
        double cpu = r.server().cpuMsPerReq();
        return cpu > 0 ? 1000 / cpu : Double.NaN;
    }

    private static List<double[]> rpsByFork(List<SampleRecord> samples) {
        return ForkedSamples.byFork(samples, SampleRecord::repeat, s -> s.figures().rps());
    }

    private static double[] flat(List<double[]> forks) {
        return forks.stream().flatMapToDouble(Arrays::stream).toArray();
    }

    /** The spread between forks of each scenario's steps under each conditions, as compare pools it. */
    private static Map<String, ForkPool> pools(List<ResultRow> rows, Map<ResultRow.StepKey, List<SampleRecord>> samples) {
        Map<String, List<List<double[]>>> groups = new LinkedHashMap<>();
        for (ResultRow r : rows) {
            groups.computeIfAbsent(group(r.key()), g -> new ArrayList<>()).add(rpsByFork(samples.getOrDefault(r.key(), List.of())));
        }
        Map<String, ForkPool> pools = new LinkedHashMap<>();
        groups.forEach((g, steps) -> pools.put(g, ForkPool.of(steps)));
        return pools;
    }

    private static String group(ResultRow.StepKey key) {
        return key.scenario() + " " + key.conditions().label();
    }
}
