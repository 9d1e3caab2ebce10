package org.testbed.runner.step;

import java.util.List;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.jfr.JfrRecord;

/**
 * One measurement of one step, as each of the run's files records it: the results.csv row and
 * steps.csv record it would be on its own, its samples.csv line, with {@code --counters} its
 * counters.csv line (else null), and its operations.csv lines (none when the driver does not break
 * a step down); with {@code --jfr} its jfr.csv line (else null). {@link StepAggregate} folds the samples of a step into the step's median row and spread.
 */
record Sample(ResultRow row, StepRecord step, SampleRecord sample, CounterRecord counters,
              List<OperationRecord> operations, JfrRecord jfr) {

    /** A sample without a flight recording. */
    Sample(ResultRow row, StepRecord step, SampleRecord sample, CounterRecord counters, List<OperationRecord> operations) {
        this(row, step, sample, counters, operations, null);
    }

    Sample {
        operations = operations == null ? List.of() : List.copyOf(operations);
    }

    ResultRow.StepKey key() {
        return row.key();
    }
}
