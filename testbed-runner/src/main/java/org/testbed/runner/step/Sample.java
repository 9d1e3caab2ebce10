package org.testbed.runner.step;

import java.util.List;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runner.probe.ProbeResult;

/**
 * One measurement of one step, as each of the run's files records it: the results.csv row and
 * steps.csv record it would be on its own, its samples.csv line, its operations.csv lines (none when
 * the driver does not break a step down), and what its probes made of it (with {@code --counters}
 * its counters.csv line, with {@code --jfr} its jfr.csv line). {@link StepAggregate} folds the
 * samples of a step into the step's median row and spread.
 */
record Sample(ResultRow row, StepRecord step, SampleRecord sample, List<OperationRecord> operations, ProbeResult probed) {

    /** A sample its probes made nothing of. */
    Sample(ResultRow row, StepRecord step, SampleRecord sample, List<OperationRecord> operations) {
        this(row, step, sample, operations, ProbeResult.NONE);
    }

    Sample {
        operations = operations == null ? List.of() : List.copyOf(operations);
    }

    /** This sample left out of its step's figure: its window ran on a slow machine ({@link SlowWindows}). */
    Sample leftOut() {
        return new Sample(row, step, sample.leftOut(true), operations, probed);
    }

    ResultRow.StepKey key() {
        return row.key();
    }
}
