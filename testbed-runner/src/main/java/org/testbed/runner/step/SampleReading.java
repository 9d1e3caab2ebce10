package org.testbed.runner.step;

import org.testbed.driver.Level;
import org.testbed.driver.LoadResult;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.SteadyState;

/**
 * What one sample read, before the probes' part: when its window started, what the driver measured
 * in it and what it cost the server.
 *
 * @param startedAt the window's start, an ISO instant to the millisecond
 */
record SampleReading(String startedAt, LoadResult result, ServerAccount server) {

    /** Whether throughput still trended over the window. */
    SteadyState.Trend trend() {
        return SteadyState.trend(result.windowRps());
    }

    /** An open model's figures at {@code level} (uncorrected p99, schedule lag), or {@link StepRecord.OpenModel#CLOSED}. */
    StepRecord.OpenModel openModel(Level level) {
        return level.isOpen() ? new StepRecord.OpenModel(result.uncorrected().p99(), result.scheduleLagP99Ms())
                : StepRecord.OpenModel.CLOSED;
    }
}
