package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.stats.PrecisionTarget;

/**
 * Writes a run's tables as the samples come in, so that the files are complete after every
 * variant should the run be stopped: every sample is appended to {@code samples.csv} (and its
 * operations to {@code operations.csv}), and
 * {@code results.csv} and {@code steps.csv} are rewritten (whole, through a move) with one row per step, the
 * {@link StepAggregate} of its samples so far, steps in the order first measured.
 */
final class RunRecorder {
    private final Path resultsCsv;
    private final Path stepsCsv;
    private final Path samplesCsv;
    private final Path operationsCsv;
    private final Path countersCsv;
    private final Path capacityCsv;
    private final Path jfrCsv;
    private final Map<ResultRow.StepKey, List<Sample>> byStep = new LinkedHashMap<>();
    /** The order the tables list their steps in: as reserved ({@link #reserve}), then as first measured. */
    private final Map<ResultRow.StepKey, Integer> order = new LinkedHashMap<>();
    /** The run's precision target and its planned forks: what steps.csv says each step met. */
    private PrecisionTarget target = PrecisionTarget.NONE;
    private int plannedForks = 1;

    private RunRecorder(Path out) {
        this.resultsCsv = out.resolve(ResultsCsv.FILE);
        this.stepsCsv = out.resolve(StepsCsv.FILE);
        this.samplesCsv = out.resolve(SamplesCsv.FILE);
        this.operationsCsv = out.resolve(OperationsCsv.FILE);
        this.countersCsv = out.resolve(CountersCsv.FILE);
        this.capacityCsv = out.resolve(CapacityCsv.FILE);
        this.jfrCsv = out.resolve(JfrCsv.FILE);
    }

    /**
     * @param counters whether the samples carry perf counters (then counters.csv is written too)
     * @param capacity whether the run searches capacities under an SLA (then capacity.csv is written too)
     */
    static RunRecorder create(Path out, boolean counters, boolean capacity) throws IOException {
        return create(out, counters, false, capacity);
    }

    /** @param jfr whether the samples carry flight recordings' summaries (then jfr.csv is written too) */
    static RunRecorder create(Path out, boolean counters, boolean jfr, boolean capacity) throws IOException {
        RunRecorder recorder = new RunRecorder(out);
        ResultsCsv.create(recorder.resultsCsv);
        StepsCsv.TABLE.create(recorder.stepsCsv);
        SamplesCsv.TABLE.create(recorder.samplesCsv);
        OperationsCsv.TABLE.create(recorder.operationsCsv);
        if (counters) {
            CountersCsv.TABLE.create(recorder.countersCsv);
        }
        if (jfr) {
            JfrCsv.TABLE.create(recorder.jfrCsv);
        }
        if (capacity) {
            CapacityCsv.TABLE.create(recorder.capacityCsv);
        }
        return recorder;
    }

    void record(Sample sample) throws IOException {
        SamplesCsv.TABLE.append(samplesCsv, sample.sample());
        for (OperationRecord operation : sample.operations()) {
            OperationsCsv.TABLE.append(operationsCsv, operation);
        }
        if (sample.probed().counters().isPresent()) {
            CountersCsv.TABLE.append(countersCsv, sample.probed().counters().get());
        }
        if (sample.probed().recording().isPresent()) {
            JfrCsv.TABLE.append(jfrCsv, sample.probed().recording().get());
        }
        order.putIfAbsent(sample.key(), order.size());
        byStep.computeIfAbsent(sample.key(), k -> new ArrayList<>()).add(sample);
        List<ResultRow> rows = new ArrayList<>();
        List<StepRecord> steps = new ArrayList<>();
        for (StepAggregate aggregate : aggregates()) {
            rows.add(aggregate.row());
            steps.add(aggregate.step());
        }
        ResultsCsv.write(resultsCsv, rows);
        StepsCsv.TABLE.write(stepsCsv, steps);
    }

    /** Holds every step to {@code target}; forks numbered above {@code plannedForks} count as added for it. */
    void holdTo(PrecisionTarget target, int plannedForks) {
        this.target = target;
        this.plannedForks = plannedForks;
    }

    /** Appends one capacity search's outcome to capacity.csv. */
    void recordCapacity(CapacityRecord record) throws IOException {
        CapacityCsv.TABLE.append(capacityCsv, record);
    }

    /** The samples so far of the step {@code key} (empty when none). */
    List<Sample> samplesOf(ResultRow.StepKey key) {
        return byStep.getOrDefault(key, List.of());
    }

    /**
     * Keeps the tables' place of a step measured later: an interleaved run measures its variants in a new
     * random order every round, and its tables still list them in the run's order.
     */
    void reserve(ResultRow.StepKey key) {
        order.putIfAbsent(key, order.size());
    }

    List<StepAggregate> aggregates() {
        Map<ResultRow.StepKey, List<Sample>> kept = new LinkedHashMap<>();
        byStep.forEach((key, samples) -> kept.put(key, StepAggregate.kept(samples)));
        Map<ResultRow.StepKey, StepPools> pools = StepPools.of(kept);
        return byStep.entrySet().stream().sorted(java.util.Comparator.comparingInt(e -> order.get(e.getKey())))
                .map(e -> StepAggregate.of(e.getValue(), pools.get(e.getKey())).held(target, plannedForks)).toList();
    }

    /** Windows recorded in samples.csv, retaken ones and those left out included. */
    int windows() {
        return byStep.values().stream().mapToInt(List::size).sum();
    }

    /** Steps with a row in results.csv. */
    int steps() {
        return byStep.size();
    }

    Path resultsCsv() {
        return resultsCsv;
    }
}
