package org.testbed.runner.step;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.ResultRow;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.Spread;

/**
 * The samples of one step folded into what results.csv and steps.csv show: each figure the median
 * of its samples (so one slow repeat does not move it), except {@code errors}, the most any sample
 * had, so that the median never hides an error, and the user/system split of CPU per request,
 * taken from the median sample(s) so that it adds up to the median; the spread of throughput, p99 and CPU per request
 * with the confidence interval of their centre, fork by fork ({@link #spread}); a step is saturated if any sample was. The load-side
 * details and the raw file are those of the sample whose throughput is the median.
 */
record StepAggregate(ResultRow row, StepRecord step) {

    static StepAggregate of(List<Sample> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("a step without samples");
        }
        Sample typical = samples.stream().sorted(Comparator.comparingDouble(s -> s.row().rps()))
                .toList().get((samples.size() - 1) / 2);
        ResultRow t = typical.row();
        Spread rps = spread(samples, s -> s.row().rps());
        Spread p99 = spread(samples, s -> s.row().latP99Ms());
        Spread cpu = spread(samples, s -> s.row().cpuMsPerReq());
        ResultRow row = new ResultRow(t.runId(), samples.get(0).row().startedAt(), t.host(), t.arch(), t.cpuModel(),
                t.cpus(), t.jdk(), t.variant(), t.mode(), t.scenario(), t.driver(), t.concurrency(), t.targetRps(),
                median(samples, s -> s.row().durationS()), Math.round(median(samples, s -> s.row().requests())),
                samples.stream().mapToLong(s -> s.row().errors()).max().orElse(0), rps.median(),
                median(samples, s -> s.row().latP50Ms()), median(samples, s -> s.row().latP90Ms()), p99.median(),
                median(samples, s -> s.row().latP999Ms()), median(samples, s -> s.row().latMaxMs()),
                middle(samples, s -> s.row().cpuMsPerReq(), s -> s.row().cpuUserMsPerReq()),
                middle(samples, s -> s.row().cpuMsPerReq(), s -> s.row().cpuSysMsPerReq()),
                median(samples, s -> s.row().serverRssMb()), Math.round(median(samples, s -> s.row().gcCount())),
                median(samples, s -> s.row().gcMs()), t.conditions());
        StepRecord d = typical.step();
        StepRecord step = new StepRecord(d.variant(), d.scenario(), d.concurrency(), d.targetRps(), d.driver(),
                d.driverCpuMs(), d.driverCpuPct(), d.memcachedCpuPct(), d.loadCpusBusyPct(), d.serverCpusBusyPct(),
                d.stealPct(), d.otherLoadPct(), d.loadSidePct(), samples.stream().anyMatch(s -> s.step().loadSaturated()),
                d.peakConnections(), d.serverCpus(), d.loadCpus(), d.delayMs(), d.threads(), d.raw(), d.flamegraph(),
                samples.size(), rps, p99, cpu, median(samples, s -> s.sample().warmupS()),
                (int) samples.stream().filter(s -> !s.sample().steady()).count(),
                median(samples, s -> s.sample().latP99UncorrectedMs()), median(samples, s -> s.sample().scheduleLagP99Ms()),
                (int) samples.stream().filter(s -> !s.sample().warmupSettled()).count(), d.conditions(), d.tlsHandshakes(),
                d.gzipResponses(), d.sla());
        return new StepAggregate(row, step);
    }

    /**
     * A figure's median and range over all samples, and the {@link ForkedSamples} interval of its
     * centre, the fork (a fresh server) as the unit: iterations of one server scatter less than
     * servers do, and counting them as independent would give an interval too narrow.
     */
    static Spread spread(List<Sample> samples, ToDoubleFunction<Sample> figure) {
        double[] all = Arrays.stream(values(samples, figure)).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (all.length == 0) {
            return new Spread(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
        }
        Map<Integer, List<Sample>> forks = new TreeMap<>();
        for (Sample s : samples) {
            forks.computeIfAbsent(s.sample().repeat(), k -> new ArrayList<>()).add(s);
        }
        ForkedSamples.Estimate estimate = ForkedSamples.estimate(forks.values().stream()
                .map(f -> values(f, figure)).toList());
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
