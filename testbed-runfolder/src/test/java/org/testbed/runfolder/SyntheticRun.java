package org.testbed.runfolder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.Spread;

/**
 * A run folder written through the run folder's own tables, as the runner folds its samples: every
 * step measured in forks × iterations, its samples scattered deterministically around the figures
 * given ({@link #WOBBLE}), results.csv holding their medians (errors: the most any sample had),
 * steps.csv their spread with the interval fork by fork ({@link ForkedSamples}), samples.csv every
 * sample. For tests of what reads a run folder back: compare, the gates.
 */
public final class SyntheticRun {
    /** The scatter of the samples of a step, in the order taken. */
    public static final double[] WOBBLE = {1.0, 0.98, 1.02, 0.99, 1.01, 0.97, 1.03, 0.995, 1.005};

    private SyntheticRun() {
    }

    /**
     * One step of the run.
     *
     * @param key the step
     * @param rps its throughput, around which the samples scatter
     * @param p99Ms its p99 latency
     * @param cpuMsPerReq its server CPU per request
     * @param errors errors in each sample
     * @param forks fresh servers it was measured in
     * @param iterations measurements in each
     * @param sla the objective it probed for as a step of a capacity search, or empty
     * @param operations its kinds of request, for operations.csv; none: the run has no operations.csv
     */
    public record Step(StepKey key, double rps, double p99Ms, double cpuMsPerReq, long errors, int forks, int iterations,
                       String sla, List<Operation> operations) {
        /** A planned step of 2 forks × 3 iterations without errors. */
        public static Step of(StepKey key, double rps, double p99Ms, double cpuMsPerReq) {
            return new Step(key, rps, p99Ms, cpuMsPerReq, 0, 2, 3, "", List.of());
        }

        /** The same step, its samples broken down into these operations in operations.csv. */
        public Step withOperations(List<Operation> operations) {
            return new Step(key, rps, p99Ms, cpuMsPerReq, errors, forks, iterations, sla, List.copyOf(operations));
        }

        public Step times(int forks, int iterations) {
            return new Step(key, rps, p99Ms, cpuMsPerReq, errors, forks, iterations, sla, operations);
        }

        public Step withErrors(long errors) {
            return new Step(key, rps, p99Ms, cpuMsPerReq, errors, forks, iterations, sla, operations);
        }

        public Step probing(String sla) {
            return new Step(key, rps, p99Ms, cpuMsPerReq, errors, forks, iterations, sla, operations);
        }

        /** The same step, its throughput times {@code rps} and its p99 and CPU times {@code cost}: 2× slower is (0.5, 2). */
        public Step scaled(double rps, double cost) {
            return new Step(key, this.rps * rps, p99Ms * cost, cpuMsPerReq * cost, errors, forks, iterations, sla, operations);
        }
    }

    /**
     * One kind of request of a step: its share of the step's requests, its own median and p99 (p90
     * halfway between, p99.9 1.5 times p99, the largest twice), scattered sample by sample as the step's.
     */
    public record Operation(String name, double share, double p50Ms, double p99Ms) {
        /** The mix's four methods at its weights (80:10:5:5), each with a median of 1 ms and this p99. */
        public static List<Operation> mix(double getP99Ms, double postP99Ms, double putP99Ms, double deleteP99Ms) {
            return List.of(new Operation("GET", 0.8, 1, getP99Ms), new Operation("POST", 0.1, 1, postP99Ms),
                    new Operation("PUT", 0.05, 1, putP99Ms), new Operation("DELETE", 0.05, 1, deleteP99Ms));
        }

        /** Its latencies in a sample whose throughput was {@code w} times the step's. */
        ResultRow.Latencies latencies(double w) {
            return new ResultRow.Latencies(p50Ms / w, (p50Ms + p99Ms) / 2 / w, p99Ms / w, 1.5 * p99Ms / w, 2 * p99Ms / w);
        }
    }

    /**
     * Writes results.csv, steps.csv, samples.csv and a minimal environment.json into {@code dir}, and
     * operations.csv when a step has {@link Step#operations()}.
     */
    public static Path write(Path dir, List<Step> steps) throws IOException {
        Files.createDirectories(dir);
        List<ResultRow> rows = new ArrayList<>();
        List<StepRecord> records = new ArrayList<>();
        List<SampleRecord> samples = new ArrayList<>();
        List<OperationRecord> operations = new ArrayList<>();
        for (Step s : steps) {
            List<SampleRecord> own = new ArrayList<>();
            int i = 0;
            for (int fork = 1; fork <= s.forks(); fork++) {
                for (int iteration = 1; iteration <= s.iterations(); iteration++) {
                    double w = WOBBLE[i++ % WOBBLE.length];
                    SampleRecord sample = Records.sample(s.key(), fork, iteration, s.rps() * w, s.p99Ms() / w,
                            s.cpuMsPerReq() / w);
                    own.add(new SampleRecord(sample.key(), fork, iteration, new SampleRecord.Figures(sample.figures().rps(),
                            sample.figures().latP99Ms(), sample.figures().cpuMsPerReq(), s.errors()), sample.open(),
                            sample.caveats(), sample.raw(), 0, 0));
                    for (Operation op : s.operations()) {
                        double rps = s.rps() * w * op.share();
                        operations.add(new OperationRecord(s.key(), fork, iteration, op.name(), Math.round(rps * 10), 0,
                                rps, op.latencies(w)));
                    }
                }
            }
            Spread rps = spread(own, x -> x.figures().rps());
            Spread p99 = spread(own, x -> x.figures().latP99Ms());
            Spread cpu = spread(own, x -> x.figures().cpuMsPerReq());
            ResultRow row = new ResultRow(Records.origin(), s.key(), Records.MODE, Records.DRIVER,
                    new ResultRow.Throughput(10, Math.round(rps.median() * 10), s.errors(), rps.median()),
                    Records.latencies(p99.median()), Records.server(cpu.median() * 0.75, cpu.median() * 0.25));
            StepRecord step = Records.step(row, Records.WARMUP_S).over(new StepRecord.Repeats(own.size(), rps, p99, cpu),
                    new StepRecord.Steadiness(Records.WARMUP_S, 0, 0), StepRecord.OpenModel.CLOSED, false);
            rows.add(row);
            records.add(s.sla().isEmpty() ? step : Records.withSla(step, s.sla()));
            samples.addAll(own);
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);
        StepsCsv.TABLE.write(dir.resolve(StepsCsv.FILE), records);
        SamplesCsv.TABLE.write(dir.resolve(SamplesCsv.FILE), samples);
        if (!operations.isEmpty()) {
            OperationsCsv.TABLE.write(dir.resolve(OperationsCsv.FILE), operations);
        }
        Files.writeString(dir.resolve(EnvironmentFile.NAME), "{\"run\":{\"run_id\":\"" + Records.RUN_ID + "\"},"
                + "\"machine\":{\"host\":\"host\",\"arch\":\"x86_64\",\"cpus\":2,\"cpu_model\":\"" + Records.CPU_MODEL + "\"}}");
        return dir;
    }

    /** The median, the range and the interval fork by fork, as the runner writes them to steps.csv. */
    private static Spread spread(List<SampleRecord> samples, ToDoubleFunction<SampleRecord> figure) {
        double[] all = samples.stream().mapToDouble(figure).sorted().toArray();
        if (all.length == 1) {
            return Spread.single(all[0]);
        }
        List<double[]> forks = new ArrayList<>();
        for (int fork : samples.stream().mapToInt(SampleRecord::repeat).distinct().toArray()) {
            forks.add(samples.stream().filter(x -> x.repeat() == fork).mapToDouble(figure).toArray());
        }
        double[] ci = ForkedSamples.estimate(forks).interval();
        return new Spread(all.length, MedianInterval.median(all), all[0], all[all.length - 1], ci[0], ci[1],
                ForkedSamples.LEVEL);
    }
}
