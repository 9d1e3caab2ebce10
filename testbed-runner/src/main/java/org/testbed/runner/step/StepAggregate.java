package org.testbed.runner.step;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.ResultRow;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.ForkPool;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.Spread;

/**
 * The samples of one step folded into what results.csv and steps.csv show: each figure the median
 * of its samples (so one slow repeat does not move it), except {@code errors}, the most any sample
 * had, so that the median never hides an error, and the user/system split of CPU per request,
 * taken from the median sample(s) so that it adds up to the median; the spread of throughput, p99 and CPU per request
 * with the confidence interval of their centre, fork by fork ({@link #spread}); a step is saturated if any sample was, and
 * counts the samples whose listen queue overflowed. The load-side
 * details and the raw file are those of the sample whose throughput is the median.
 */
record StepAggregate(ResultRow row, StepRecord step) {

    static StepAggregate of(List<Sample> samples) {
        return of(samples, StepPools.NONE);
    }

    /** @param pools the run's spread between forks of the step's scenario, to lean on ({@link StepPools}) */
    static StepAggregate of(List<Sample> samples, StepPools pools) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("a step without samples");
        }
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
        StepRecord step = typical.step().over(new StepRecord.Repeats(samples.size(), rps, p99, cpu),
                new StepRecord.Steadiness(median(samples, s -> s.sample().caveats().warmupS()),
                        (int) samples.stream().filter(s -> !s.sample().caveats().steady()).count(),
                        (int) samples.stream().filter(s -> !s.sample().caveats().warmupSettled()).count()),
                new StepRecord.OpenModel(median(samples, s -> s.sample().open().latP99UncorrectedMs()),
                        median(samples, s -> s.sample().open().scheduleLagP99Ms())),
                samples.stream().anyMatch(s -> s.step().load().saturated()))
                .withListenOverflowSamples((int) samples.stream()
                        .filter(s -> s.step().server().saturation().listenQueueOverflowed()).count());
        return new StepAggregate(row, step);
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
