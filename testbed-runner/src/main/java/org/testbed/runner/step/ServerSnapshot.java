package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Path;
import org.testbed.runner.proc.CpuTimes;
import org.testbed.runner.proc.GcCounters;
import org.testbed.runner.proc.ProcStat;

/**
 * What the runner reads before and after a step's window: the server's CPU ticks and GC counters,
 * every CPU's busy time (to see other load on the machine) and the runner's memcached's ticks.
 * The difference of two snapshots is what the step cost.
 *
 * @param memcached the runner's memcached's ticks, or null when the run uses someone else's
 */
record ServerSnapshot(ProcStat server, GcCounters gc, CpuTimes machine, ProcStat memcached) {

    /** Reads the server first and the machine last, as the "after" read does in reverse, so the window is symmetric. */
    static ServerSnapshot before(long pid, Path javaHome, long memcachedPid) throws IOException {
        ProcStat server = ProcStat.read(pid);
        GcCounters gc = GcCounters.read(pid, javaHome);
        CpuTimes machine = CpuTimes.read();
        ProcStat memcached = memcachedPid > 0 ? ProcStat.read(memcachedPid) : null;
        return new ServerSnapshot(server, gc, machine, memcached);
    }

    static ServerSnapshot after(long pid, Path javaHome, long memcachedPid) throws IOException {
        CpuTimes machine = CpuTimes.read();
        ProcStat memcached = memcachedPid > 0 ? ProcStat.read(memcachedPid) : null;
        ProcStat server = ProcStat.read(pid);
        GcCounters gc = GcCounters.read(pid, javaHome);
        return new ServerSnapshot(server, gc, machine, memcached);
    }
}
