package org.testbed.driver;

import java.io.IOException;
import java.time.Duration;
import org.testbed.scenario.Workload;

/** Sends a workload's requests to a target at one level for a while, and measures. */
public interface LoadDriver {

    /** The name in the CSV's {@code driver} column. */
    String name();

    /** Whether this driver can apply {@code level} with {@code workload}. */
    boolean supports(Workload workload, Level level);

    /**
     * Runs one step. {@code loadCpus} is how many CPUs the driver may use (its threads, and the
     * denominator of its CPU share). Bounded: returns within {@code duration} plus a few seconds.
     */
    LoadResult run(Target target, Workload workload, Level level, Duration duration, int loadCpus)
            throws IOException, InterruptedException;
}
