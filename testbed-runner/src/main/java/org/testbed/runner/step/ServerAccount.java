package org.testbed.runner.step;

import org.testbed.driver.LoadResult;
import org.testbed.runner.proc.GcCounters;
import org.testbed.runner.proc.ProcStatus;

/**
 * What one sample cost the server and who else used the CPUs meanwhile, from the server's readings
 * before and after its window: the step's own figures, which every sample has, so not a probe.
 *
 * @param load where the CPU time went
 * @param saturation whether the server was short of something
 * @param gc its collections over the step
 */
record ServerAccount(ServerSnapshot before, ServerSnapshot after, LoadAccounting load, SaturationAccounting saturation,
                     GcCounters gc) {

    static ServerAccount of(ServerSnapshot before, ServerSnapshot after, LoadResult result, RunSettings settings) {
        return new ServerAccount(before, after,
                LoadAccounting.of(before, after, result, settings.servers().pinning(), settings.load().saturationPct()),
                SaturationAccounting.of(before, after, result.requests()), after.gc().minus(before.gc()));
    }

    /** The server's memory at the step's end. */
    ProcStatus memory() {
        return after.memory();
    }
}
