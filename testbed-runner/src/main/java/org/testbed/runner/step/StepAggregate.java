package org.testbed.runner.step;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.ForkAllocation;
import org.testbed.runfolder.stats.ForkPool;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.PrecisionTarget;
import org.testbed.runfolder.stats.Spread;
import org.testbed.runfolder.stats.VarianceComponents;
import org.testbed.runfolder.figure.Figure;

/**
 * The samples of one step folded into what results.csv and steps.csv show: each figure the median
 * of its samples (so one slow repeat does not move it), except {@code errors}, the most any sample
 * had, so that the median never hides an error, and the user/system split of CPU per request,
 * taken from the median sample(s) so that it adds up to the median; the spread of throughput, p99 and CPU per request
 * with the confidence interval of their centre, fork by fork ({@link #spread}); a step is saturated if any sample was, and
 * counts the samples whose listen queue overflowed. The load-side
 * details and the raw file are those of the sample whose throughput is the median. A sample whose
 * window ran on a slow machine ({@link SlowWindows}, samples.csv's {@code left_out}) is left out of
 * all of it and counted, unless every sample of the step was ({@link #kept}); a window measured
 * again shares its fork and iteration with the one it replaces, and is counted as a retake.
 */
record StepAggregate(ResultRow row, StepRecord step, List<Sample> samples, Judged judged) {

    /**
     * The half-widths the precision phase judges the step by, per figure: the wider of its interval
     * and the one with the fork as the unit ({@link ForkedSamples#estimateForkUnit}), so that a step
     * whose few JVMs landed together by chance is not taken as precise and left so.
     */
    record Judged(double rps, double p99, double cpu, Projection projection) {
        static final Judged NONE = new Judged(Double.NaN, Double.NaN, Double.NaN, Projection.NONE);
    }

    /** Each figure's estimate with the fork as the unit: what the forks a target needs are projected from. */
    record Projection(ForkedSamples.Estimate rps, ForkedSamples.Estimate p99, ForkedSamples.Estimate cpu) {
        static final ForkedSamples.Estimate NOTHING = new ForkedSamples.Estimate(Double.NaN, Double.NaN, 0, 0, 0);
        static final Projection NONE = new Projection(NOTHING, NOTHING, NOTHING);

        ForkedSamples.Estimate of(Figure figure) {
            return switch (figure) {
                case RPS -> rps;
                case P99 -> p99;
                case CPU -> cpu;
                default -> throw new IllegalArgumentException(figure + " has no interval in steps.csv");
            };
        }
    }

    static StepAggregate of(List<Sample> samples) {
        return of(samples, StepPools.NONE);
    }

    /** @param pools the run's spread between forks of the step's scenario, to lean on ({@link StepPools}) */
    static StepAggregate of(List<Sample> all, StepPools pools) {
        if (all.isEmpty()) {
            throw new IllegalArgumentException("a step without samples");
        }
        List<Sample> samples = kept(all);
        boolean slowFigure = all.stream().allMatch(s -> s.sample().leftOut());
        int slowSamples = (int) all.stream().filter(s -> s.sample().leftOut()).count();
        int retakes = all.size() - (int) all.stream().map(s -> s.sample().repeat() + "/" + s.sample().iteration()).distinct().count();
        Sample typical = samples.stream().sorted(Comparator.comparingDouble(s -> s.row().throughput().rps()))
                .toList().get((samples.size() - 1) / 2);
        ResultRow t = typical.row();
        Spread rps = spread(samples, StepPools.RPS, pools.rps());
        Spread p99 = spread(samples, StepPools.P99, pools.p99());
        Spread cpu = spread(samples, StepPools.CPU, pools.cpu());
        ResultRow.Origin origin = new ResultRow.Origin(t.origin().runId(), samples.get(0).row().origin().startedAt(),
                t.origin().host(), t.origin().arch(), t.origin().cpuModel(), t.origin().cpus(), t.origin().jdk());
        ResultRow.Throughput throughput = new ResultRow.Throughput(median(samples, s -> s.row().throughput().durationS()),
                Math.round(median(samples, s -> s.row().throughput().requests())),
                samples.stream().mapToLong(s -> s.row().throughput().errors()).max().orElse(0), rps.median());
        ResultRow.Latencies latency = new ResultRow.Latencies(median(samples, s -> s.row().latency().p50Ms()),
                median(samples, s -> s.row().latency().p90Ms()), p99.median(),
                median(samples, s -> s.row().latency().p999Ms()), median(samples, s -> s.row().latency().maxMs()));
        ResultRow.ServerCost server = new ResultRow.ServerCost(
                middle(samples, s -> s.row().server().cpuMsPerReq(), s -> s.row().server().cpuUserMsPerReq()),
                middle(samples, s -> s.row().server().cpuMsPerReq(), s -> s.row().server().cpuSysMsPerReq()),
                median(samples, s -> s.row().server().rssMb()), Math.round(median(samples, s -> s.row().server().gcCount())),
                median(samples, s -> s.row().server().gcMs()));
        ResultRow row = new ResultRow(origin, t.key(), t.mode(), t.driver(), throughput, latency, server);
        int forks = (int) samples.stream().mapToInt(s -> s.sample().repeat()).distinct().count();
        StepRecord.Precision precision = new StepRecord.Precision(forks, 0, scatter(samples, StepPools.RPS),
                scatter(samples, StepPools.P99), scatter(samples, StepPools.CPU), Double.NaN, "");
        StepRecord step = typical.step().with(precision).over(new StepRecord.Repeats(samples.size(), rps, p99, cpu),
                new StepRecord.Steadiness(median(samples, s -> s.sample().caveats().warmupS()),
                        (int) samples.stream().filter(s -> !s.sample().caveats().steady()).count(),
                        (int) samples.stream().filter(s -> !s.sample().caveats().warmupSettled()).count(),
                        slowSamples, retakes, slowFigure),
                new StepRecord.OpenModel(median(samples, s -> s.sample().open().latP99UncorrectedMs()),
                        median(samples, s -> s.sample().open().scheduleLagP99Ms())),
                samples.stream().anyMatch(s -> s.step().load().saturated()),
                Measured.median(samples.stream().map(s -> s.sample().measured()).toList()))
                .withListenOverflowSamples((int) samples.stream()
                        .filter(s -> s.step().server().saturation().listenQueueOverflowed()).count());
        Projection projection = new Projection(forkUnit(samples, StepPools.RPS, pools.rps()),
                forkUnit(samples, StepPools.P99, pools.p99()), forkUnit(samples, StepPools.CPU, pools.cpu()));
        Judged judged = new Judged(judged(projection.rps(), rps), judged(projection.p99(), p99), judged(projection.cpu(), cpu),
                projection);
        return new StepAggregate(row, step, List.copyOf(samples), judged);
    }

    /**
     * The samples a step's figure is made of: those whose window did not run on a slow machine, or all
     * of them when every one did (steps.csv's {@code slow_machine_figure} says so).
     */
    static List<Sample> kept(List<Sample> samples) {
        List<Sample> kept = samples.stream().filter(s -> !s.sample().leftOut()).toList();
        return kept.isEmpty() ? samples : kept;
    }

    private static ForkedSamples.Estimate forkUnit(List<Sample> samples, ToDoubleFunction<Sample> figure, ForkPool pool) {
        List<double[]> forks = StepPools.byFork(samples, figure);
        return ForkedSamples.estimateForkUnit(forks, pool.without(forks));
    }

    private static double judged(ForkedSamples.Estimate forkUnitEstimate, Spread spread) {
        double forkUnit = forkUnitEstimate.halfWidthPct();
        double shown = spread.halfWidthPct();
        return Double.isNaN(shown) || Double.isNaN(forkUnit) ? Double.NaN : Math.max(shown, forkUnit);
    }

    /**
     * This step held to {@code target}: whether each figure the target names for its scenario has an
     * interval within it, and how many of its forks came after the {@code plannedForks}.
     */
    StepAggregate held(PrecisionTarget target, int plannedForks) {
        StepRecord.Precision p = step.precision();
        int added = (int) forkNumbers().stream().filter(f -> f > plannedForks).count();
        Optional<PrecisionTarget.Rule> rule = target.forScenario(row.scenario());
        if (rule.isEmpty()) {
            return new StepAggregate(row, step.with(new StepRecord.Precision(p.forks(), added, p.rps(), p.p99(), p.cpu(),
                    Double.NaN, "")), samples, judged);
        }
        boolean met = widthRatio(rule.get()) <= 1;
        return new StepAggregate(row, step.with(new StepRecord.Precision(p.forks(), added, p.rps(), p.p99(), p.cpu(),
                rule.get().pct(), met ? StepRecord.Precision.MET : StepRecord.Precision.MISSED)), samples, judged);
    }

    /**
     * The widest of the figures {@code rule} names, over its target, as {@link Judged}: above 1 when the
     * step is wider than asked.
     */
    double widthRatio(PrecisionTarget.Rule rule) {
        List<Double> widths = new ArrayList<>();
        for (Figure f : rule.figures()) {
            widths.add(judgedHalfWidthPct(f));
        }
        return ForkAllocation.widthRatio(widths, rule.pct());
    }

    /**
     * The forks this step would need for every figure {@code rule} names to be within it, projected
     * from its forks' scatter ({@link ForkedSamples.Estimate#forksFor}); {@code limit + 1} when more
     * than {@code limit}.
     */
    int forksNeeded(PrecisionTarget.Rule rule, int limit) {
        int needed = 0;
        for (Figure f : rule.figures()) {
            needed = Math.max(needed, judged.projection().of(f).forksFor(rule.pct(), limit));
        }
        return needed;
    }

    /** Whether the figure the rule is furthest from has forks in two settled modes: more forks cannot narrow it. */
    boolean twoModes(PrecisionTarget.Rule rule) {
        return ForkedSamples.twoSettledModes(StepPools.byFork(samples, PrecisionPhase.figure(widest(rule))));
    }

    /** The half-width of a figure's interval in per cent: the smallest change the step can tell. */
    double halfWidthPct(Figure figure) {
        StepRecord.Repeats r = step.repeats();
        return switch (figure) {
            case RPS -> r.rps().halfWidthPct();
            case P99 -> r.p99().halfWidthPct();
            case CPU -> r.cpu().halfWidthPct();
            default -> throw new IllegalArgumentException(figure + " has no interval in steps.csv");
        };
    }

    /**
     * The half-width the precision phase judges a figure by ({@link Judged}): never narrower than
     * {@link #halfWidthPct}, wider when the step's few JVMs landed together by chance.
     */
    double judgedHalfWidthPct(Figure figure) {
        return switch (figure) {
            case RPS -> judged.rps();
            case P99 -> judged.p99();
            case CPU -> judged.cpu();
            default -> throw new IllegalArgumentException(figure + " has no interval in steps.csv");
        };
    }

    /** The limiting figure's name among those {@code rule} names: the widest as judged ({@link Judged}). */
    Figure widest(PrecisionTarget.Rule rule) {
        return rule.figures().stream().max(Comparator.comparingDouble(f -> {
            double h = judgedHalfWidthPct(f);
            return Double.isNaN(h) ? Double.POSITIVE_INFINITY : h;
        })).orElseThrow();
    }

    private List<Integer> forkNumbers() {
        return samples.stream().map(s -> s.sample().repeat()).distinct().sorted().toList();
    }

    /** A figure's scatter between forks and between iterations ({@link VarianceComponents}), in per cent. */
    static StepRecord.Scatter scatter(List<Sample> samples, ToDoubleFunction<Sample> figure) {
        VarianceComponents c = VarianceComponents.of(StepPools.byFork(samples, figure));
        return new StepRecord.Scatter(c.forkSdPct(), c.iterationSdPct());
    }

    /**
     * A figure's median and range over all samples, and the {@link ForkedSamples} interval of its
     * centre, the fork (a fresh server) as the unit: iterations of one server scatter less than
     * servers do, and counting them as independent would give an interval too narrow. {@code pool}
     * is the run's spread between forks for the figure, this step's own included (it is taken out).
     */
    static Spread spread(List<Sample> samples, ToDoubleFunction<Sample> figure, ForkPool pool) {
        double[] all = Arrays.stream(values(samples, figure)).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (all.length == 0) {
            return new Spread(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
        }
        List<double[]> forks = StepPools.byFork(samples, figure);
        ForkedSamples.Estimate estimate = ForkedSamples.estimate(forks, pool.without(forks));
        if (!estimate.hasNoiseEstimate()) {
            return Spread.single(all[0]);
        }
        double[] interval = estimate.interval();
        return new Spread(all.length, MedianInterval.median(all), all[0], all[all.length - 1], interval[0], interval[1],
                ForkedSamples.LEVEL);
    }

    private static double[] values(List<Sample> samples, ToDoubleFunction<Sample> figure) {
        return samples.stream().mapToDouble(figure).toArray();
    }

    /**
     * {@code part} of the sample(s) in the middle by {@code whole}: the user and system shares of the
     * median CPU per request, so that they still add up to it (medians of each part would not).
     */
    static double middle(List<Sample> samples, ToDoubleFunction<Sample> whole, ToDoubleFunction<Sample> part) {
        List<Sample> sorted = samples.stream().filter(s -> !Double.isNaN(whole.applyAsDouble(s)))
                .sorted(Comparator.comparingDouble(whole)).toList();
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int n = sorted.size();
        return n % 2 == 1 ? part.applyAsDouble(sorted.get(n / 2))
                : (part.applyAsDouble(sorted.get(n / 2 - 1)) + part.applyAsDouble(sorted.get(n / 2))) / 2;
    }

    /** The median, ignoring NaN (a figure a sample does not have); NaN when no sample has it. */
    static double median(List<Sample> samples, ToDoubleFunction<Sample> figure) {
        return MedianInterval.median(values(samples, figure));
    }
}
