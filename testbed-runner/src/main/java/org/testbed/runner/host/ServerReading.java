package org.testbed.runner.host;

import org.testbed.runner.proc.CpuTimes;
import org.testbed.runner.proc.GcCounters;
import org.testbed.driver.proc.ProcStat;
import org.testbed.runner.proc.ProcStatus;
import org.testbed.runner.proc.SaturationReading;

/**
 * The server's figures at one moment, read on the machine it runs on.
 *
 * @param cpu its {@code /proc/PID/stat} CPU times
 * @param gc its collectors' counts and time
 * @param memory its {@code /proc/PID/status} resident set size
 * @param machine the {@code /proc/stat} of the server's machine when that is another machine, else null
 *                (this machine's is read with the load side's figures)
 * @param saturation its threads' run-queue wait and preemptions, its namespace's TCP counters, its cgroup's throttling
 */
public record ServerReading(ProcStat cpu, GcCounters gc, ProcStatus memory, CpuTimes machine, SaturationReading saturation) {
}
