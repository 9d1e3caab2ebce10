package org.testbed.runner.step;

import java.util.List;
import java.util.Optional;
import org.testbed.driver.LoadResult;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runfolder.stats.Spread;
import org.testbed.runfolder.stats.SteadyState;
import org.testbed.runner.host.MachineLabel;
import org.testbed.runner.probe.ProbeResult;

/**
 * One sample's lines in the run's tables, from what it read and what its probes made of it: its
 * results.csv row and steps.csv record as a step of one sample, its samples.csv line and its
 * operations.csv lines.
 */
final class SampleRecords {
    private final RunSettings settings;
    private final Optional<Pricing> pricing;

    /** @param pricing the run's price on the server's machine, or empty without one */
    SampleRecords(RunSettings settings, Optional<Pricing> pricing) {
        this.settings = settings;
        this.pricing = pricing;
    }

    /** @param raw the sample's raw file, relative to the run folder */
    Sample of(ServedVariant served, SamplePlan plan, SampleReading reading, ProbeResult probed, String raw) {
        ResultRow.StepKey key = plan.key(served.variant().name(), settings.conditions());
        ResultRow row = row(key, served, reading);
        StepRecord step = step(row, plan, reading, new StepRecord.Files(raw, probed.flameGraph(), probed.heatMap()),
                probed.figures());
        return new Sample(row, step, sample(row, plan, reading, raw, probed.figures()),
                operations(key, plan, reading.result()), probed);
    }

    private ResultRow row(ResultRow.StepKey key, ServedVariant served, SampleReading reading) {
        MachineLabel machine = served.server().machine();
        LoadResult result = reading.result();
        LoadAccounting load = reading.server().load();
        return new ResultRow(
                new ResultRow.Origin(settings.output().runId(), reading.startedAt(), machine.host(), machine.arch(),
                        machine.cpuModel(), machine.cpus(), served.jdk().label()),
                key, served.variant().mode(), result.driver(),
                new ResultRow.Throughput(result.seconds(), result.requests(), result.errors(), result.rps()),
                new ResultRow.Latencies(result.latency().p50(), result.latency().p90(), result.latency().p99(),
                        result.latency().p999(), result.latency().max()),
                new ResultRow.ServerCost(load.userMsPerReq(), load.sysMsPerReq(), reading.server().memory().rssMb(),
                        reading.server().gc().count(), reading.server().gc().millis()));
    }

    private StepRecord step(ResultRow row, SamplePlan plan, SampleReading reading, StepRecord.Files files, Measured figures) {
        LoadResult result = reading.result();
        LoadAccounting load = reading.server().load();
        int delayMs = plan.workload().name().equals("delay") ? settings.load().delayMs() : 0;
        SteadyState.Trend trend = reading.trend();
        return new StepRecord(row.key(),
                new StepRecord.DriverSide(result.driver(), result.driverCpuMs(), load.driverPct(), result.peakConnections(),
                        result.tlsHandshakes(), result.gzipResponses()),
                load.serverSide(reading.server().saturation().figures()), load.loadSide(),
                new StepRecord.Setup(settings.servers().pinning().serverCpus(), settings.servers().pinning().loadCpus(),
                        delayMs, settings.servers().threads(), settings.capacity().map(p -> p.sla().label()).orElse("")),
                files,
                new StepRecord.Repeats(1, Spread.single(row.throughput().rps()), Spread.single(row.latency().p99Ms()),
                        Spread.single(row.server().cpuMsPerReq())),
                new StepRecord.Steadiness(plan.warmUp().seconds(), trend.steady() ? 0 : 1, plan.warmUp().settled() ? 0 : 1),
                reading.openModel(plan.level()),
                pricing.map(p -> StepRecord.Cost.of(p, row.throughput().rps(), Spread.single(row.throughput().rps())))
                        .orElse(StepRecord.Cost.NONE), StepRecord.Precision.NONE, figures);
    }

    private static SampleRecord sample(ResultRow row, SamplePlan plan, SampleReading reading, String raw, Measured figures) {
        LoadAccounting load = reading.server().load();
        return new SampleRecord(row.key(), plan.repeat(), plan.iteration(),
                new SampleRecord.Figures(row.throughput().rps(), row.latency().p99Ms(), row.server().cpuMsPerReq(),
                        row.throughput().errors()),
                reading.openModel(plan.level()), new SampleRecord.Caveats(plan.warmUp().seconds(), plan.warmUp().settled(),
                        reading.trend().steady(), load.otherLoadPct(), load.saturated()),
                raw, reading.result().tlsHandshakes(), reading.result().gzipResponses(), reading.server().saturation().figures(),
                figures);
    }

    /** A driver that cannot break the step down says why, in a row of its own, rather than leave none. */
    private static List<OperationRecord> operations(ResultRow.StepKey key, SamplePlan plan, LoadResult result) {
        if (!result.operationsUnavailable().isEmpty()) {
            return List.of(OperationRecord.notAvailable(key, plan.repeat(), plan.iteration(), result.operationsUnavailable(),
                    result.requests(), result.errors(), result.rps()));
        }
        return result.operations().stream()
                .map(o -> new OperationRecord(key, plan.repeat(), plan.iteration(), o.name(), o.requests(), o.errors(), o.rps(),
                        new ResultRow.Latencies(o.latency().p50(), o.latency().p90(), o.latency().p99(),
                                o.latency().p999(), o.latency().max())))
                .toList();
    }
}
