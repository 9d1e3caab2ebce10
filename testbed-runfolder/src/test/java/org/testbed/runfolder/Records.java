package org.testbed.runfolder;

import java.util.Optional;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultRow.Latencies;
import org.testbed.runfolder.csv.ResultRow.Origin;
import org.testbed.runfolder.csv.ResultRow.ServerCost;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.csv.ResultRow.Throughput;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SampleRecord.Caveats;
import org.testbed.runfolder.csv.SampleRecord.Figures;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepRecord.DriverSide;
import org.testbed.runfolder.csv.StepRecord.Files;
import org.testbed.runfolder.csv.StepRecord.LoadSide;
import org.testbed.runfolder.csv.StepRecord.OpenModel;
import org.testbed.runfolder.csv.StepRecord.Repeats;
import org.testbed.runfolder.csv.StepRecord.ServerSide;
import org.testbed.runfolder.csv.StepRecord.Setup;
import org.testbed.runfolder.csv.StepRecord.Steadiness;
import org.testbed.runfolder.stats.Spread;

/**
 * Run folder records for tests, with plain defaults: one machine, JDK 17, a sync variant measured by
 * testbed-nio, a plain step, quiet and steady. A figure derived here is rounded to its column's
 * decimals, so a row reads back from results.csv equal to itself.
 */
public final class Records {
    public static final String RUN_ID = "r1";
    public static final String STARTED_AT = "2025-01-01T00:00:00Z";
    public static final String CPU_MODEL = "Test CPU";
    /** A CPU model as /proc/cpuinfo may write it: the CSV must quote it. */
    public static final String QUOTED_CPU_MODEL = "Intel(R) Xeon(R), \"Gold\" 6338";
    public static final String JDK = "17";
    public static final String MODE = "sync";
    public static final String DRIVER = "testbed-nio";
    public static final String SLA = "p99<=5ms";
    /** The warm-up of a sample that names none, seconds. */
    public static final double WARMUP_S = 10;

    private Records() {
    }

    // results.csv

    public static Origin origin() {
        return origin(JDK);
    }

    public static Origin origin(String jdk) {
        return origin(CPU_MODEL, jdk);
    }

    /** Run r1 on "host", x86_64, 2 CPUs. */
    public static Origin origin(String cpuModel, String jdk) {
        return new Origin(RUN_ID, STARTED_AT, "host", "x86_64", cpuModel, 2, jdk);
    }

    /** A plain step: {@code concurrency} users (closed model), or 0 and {@code targetRps} (open model). */
    public static StepKey key(String variant, String scenario, int concurrency, double targetRps) {
        return new StepKey(variant, scenario, concurrency, targetRps, Conditions.PLAIN);
    }

    public static StepKey closed(String variant, String scenario, int concurrency) {
        return key(variant, scenario, concurrency, 0);
    }

    public static StepKey open(String variant, String scenario, double targetRps) {
        return key(variant, scenario, 0, targetRps);
    }

    /** {@code rps} over a 10 s window, no errors. */
    public static Throughput throughput(double rps) {
        return new Throughput(10, (long) (rps * 10), 0, rps);
    }

    /** Percentiles around {@code p99Ms}: p50 a third of it, p90 half, p99.9 1.5 times, the largest twice. */
    public static Latencies latencies(double p99Ms) {
        return new Latencies(round(p99Ms / 3, 3), round(p99Ms / 2, 3), p99Ms, round(p99Ms * 1.5, 3), round(p99Ms * 2, 3));
    }

    /** This CPU per request, 250 MB of RSS, 4 collections in 20 ms. */
    public static ServerCost server(double cpuUserMsPerReq, double cpuSysMsPerReq) {
        return new ServerCost(cpuUserMsPerReq, cpuSysMsPerReq, 250, 4, 20);
    }

    /** A row at 0.03 + 0.012 ms of CPU per request. */
    public static ResultRow row(StepKey key, double rps, double p99Ms) {
        return row(key, rps, p99Ms, 0.03, 0.012);
    }

    public static ResultRow row(StepKey key, double rps, double p99Ms, double cpuUserMsPerReq, double cpuSysMsPerReq) {
        return row(key, MODE, JDK, rps, p99Ms, cpuUserMsPerReq, cpuSysMsPerReq);
    }

    public static ResultRow row(StepKey key, String mode, String jdk, double rps, double p99Ms, double cpuUserMsPerReq,
                                double cpuSysMsPerReq) {
        return new ResultRow(origin(jdk), key, mode, DRIVER, throughput(rps), latencies(p99Ms),
                server(cpuUserMsPerReq, cpuSysMsPerReq));
    }

    // steps.csv

    /**
     * {@code row}'s step measured once after {@code warmupS}, as the runner records it: steady, quiet,
     * the server pinned to CPU 0 and the driver to CPU 1, 200 threads. Its spreads are
     * {@link Spread#single}, whose median steps.csv does not keep.
     */
    public static StepRecord step(ResultRow row, double warmupS) {
        StepKey key = row.key();
        return new StepRecord(key, new DriverSide(row.driver(), 900, 30, key.concurrency(), 0, 0), new ServerSide(100, 0),
                new LoadSide(10, 60, 0.5, 2, 40, false), new Setup("0", "1", 0, 200, ""),
                new Files("raw/" + key.variant() + "/" + key.scenario() + "-" + key.levelSlug() + ".txt", Optional.empty(), Optional.empty()),
                new Repeats(1, Spread.single(row.throughput().rps()), Spread.single(row.latency().p99Ms()),
                        Spread.single(row.server().cpuMsPerReq())),
                new Steadiness(warmupS, 0, 0), OpenModel.CLOSED, StepRecord.Cost.NONE);
    }

    /** {@code step} with its load side saturated: the driver at 60 %, the load CPUs 99 % busy. */
    public static StepRecord saturated(StepRecord step) {
        DriverSide d = step.driver();
        return new StepRecord(step.key(),
                new DriverSide(d.name(), d.cpuMs(), 60, d.peakConnections(), d.tlsHandshakes(), d.gzipResponses()),
                step.server(), new LoadSide(37, 99, step.load().stealPct(), step.load().otherLoadPct(), 97, true),
                step.setup(), step.files(), step.repeats(), step.steadiness(), step.open(), step.cost());
    }

    /** {@code step} with {@code delayMs} of simulated I/O per request (the delay scenario). */
    public static StepRecord withDelay(StepRecord step, int delayMs) {
        Setup s = step.setup();
        return withSetup(step, new Setup(s.serverCpus(), s.loadCpus(), delayMs, s.threads(), s.sla()));
    }

    /** {@code step} as a probe of a capacity search for {@code sla}. */
    public static StepRecord withSla(StepRecord step, String sla) {
        Setup s = step.setup();
        return withSetup(step, new Setup(s.serverCpus(), s.loadCpus(), s.delayMs(), s.threads(), sla));
    }

    private static StepRecord withSetup(StepRecord step, Setup setup) {
        return new StepRecord(step.key(), step.driver(), step.server(), step.load(), setup, step.files(), step.repeats(),
                step.steadiness(), step.open(), step.cost());
    }

    // samples.csv

    /** The first iteration of fork {@code repeat}. */
    public static SampleRecord sample(StepKey key, int repeat, double rps, double p99Ms, double cpuMsPerReq) {
        return sample(key, repeat, 1, rps, p99Ms, cpuMsPerReq);
    }

    /** A sample without errors, after a warm-up of {@link #WARMUP_S} that settled, steady and quiet. */
    public static SampleRecord sample(StepKey key, int repeat, int iteration, double rps, double p99Ms, double cpuMsPerReq) {
        return new SampleRecord(key, repeat, iteration, new Figures(rps, p99Ms, cpuMsPerReq, 0), OpenModel.CLOSED,
                Caveats.none(WARMUP_S), "", 0, 0);
    }

    public static SampleRecord withCaveats(SampleRecord s, Caveats caveats) {
        return new SampleRecord(s.key(), s.repeat(), s.iteration(), s.figures(), s.open(), caveats, s.raw(),
                s.tlsHandshakes(), s.gzipResponses());
    }

    // capacity.csv

    /** Pass {@code repeat}'s search of {@code variant}'s mix capacity under {@link #SLA}. */
    public static CapacityRecord capacity(String variant, Conditions conditions, int repeat, double capacityRps) {
        return new CapacityRecord(variant, "mix", conditions, SLA, repeat, capacityRps, 3, "100:met 200:met 400:missed",
                "200 req/s met p99<=5ms, 400 req/s missed it (p99 was 7.10 ms)", Double.NaN);
    }

    /** {@code value} as a column with {@code decimals} decimals writes it. */
    private static double round(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
