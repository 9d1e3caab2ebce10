package org.testbed.runner.step;

import org.testbed.driver.Level;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.scenario.Workload;

/**
 * One sample to take of a step.
 *
 * @param workload the scenario's requests, with the keys of this sample
 * @param level its users or arrival rate
 * @param repeat the fork (1-based)
 * @param iteration the iteration in the fork (1-based)
 * @param warmUp the warm-up the scenario had in this fork
 * @param retake 0 for the window as planned; 1, 2 for a window measured again because the one before ran on a slow
 *               machine ({@link SlowWindows})
 */
record SamplePlan(Workload workload, Level level, int repeat, int iteration, WarmUp warmUp, int retake) {

    /** The window as planned. */
    SamplePlan(Workload workload, Level level, int repeat, int iteration, WarmUp warmUp) {
        this(workload, level, repeat, iteration, warmUp, 0);
    }

    /** The step, as the run's tables key it. */
    ResultRow.StepKey key(String variant, Conditions conditions) {
        return new ResultRow.StepKey(variant, workload.name(), level.isOpen() ? 0 : level.concurrency(),
                level.isOpen() ? level.rate() : 0, conditions);
    }
}
