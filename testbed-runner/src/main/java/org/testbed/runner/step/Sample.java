package org.testbed.runner.step;

import org.testbed.runfolder.ResultRow;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;

/**
 * One measurement of one step, as each of the run's files records it: the results.csv row and
 * steps.csv record it would be on its own, its samples.csv line, and with {@code --counters} its
 * counters.csv line (else null). {@link StepAggregate} folds the samples of a step into the step's
 * median row and spread.
 */
record Sample(ResultRow row, StepRecord step, SampleRecord sample, CounterRecord counters) {

    ResultRow.StepKey key() {
        return row.key();
    }
}
