package org.testbed.runner.step;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.host.ServerReading;
import org.testbed.runner.proc.CpuTimes;
import org.testbed.runner.proc.GcCounters;
import org.testbed.driver.proc.ProcStat;
import org.testbed.runner.proc.ProcStatus;
import org.testbed.runner.proc.SaturationReading;

/**
 * What the runner reads before and after a step's window: the server's CPU ticks and GC counters
 * (on the machine it runs on), every CPU's busy time of this machine (to see other load on it) and
 * the runner's memcached's ticks. The difference of two snapshots is what the step cost.
 *
 * @param memcached the ticks of the runner's memcached, with those of the proxy in front of it when the
 *                  session has a store latency (the store side of the wire), or null when the run uses someone else's
 * @param memory the server's memory at the time
 * @param serverMachine the {@code /proc/stat} of the server's machine when it is another one
 * @param saturation the server's run-queue wait, preemptions, TCP counters and throttling; null when not read
 */
record ServerSnapshot(ProcStat server, GcCounters gc, CpuTimes machine, ProcStat memcached, ProcStatus memory,
                      Optional<CpuTimes> serverMachine, SaturationReading saturation) {

    /** Reads the server first and the machine last, as the "after" read does in reverse, so the window is symmetric. */
    static ServerSnapshot before(RunningServer server, List<Long> storePids) throws IOException {
        ServerReading reading = server.read();
        CpuTimes machine = CpuTimes.read();
        ProcStat memcached = storeSide(storePids);
        return new ServerSnapshot(reading.cpu(), reading.gc(), machine, memcached, reading.memory(),
                Optional.ofNullable(reading.machine()), reading.saturation());
    }

    static ServerSnapshot after(RunningServer server, List<Long> storePids) throws IOException {
        CpuTimes machine = CpuTimes.read();
        ProcStat memcached = storeSide(storePids);
        ServerReading reading = server.read();
        return new ServerSnapshot(reading.cpu(), reading.gc(), machine, memcached, reading.memory(),
                Optional.ofNullable(reading.machine()), reading.saturation());
    }

    /** The store side's ticks summed, or null without one. */
    private static ProcStat storeSide(List<Long> pids) throws IOException {
        ProcStat sum = null;
        for (long pid : pids) {
            ProcStat one = ProcStat.read(pid);
            sum = sum == null ? one : new ProcStat(sum.utime() + one.utime(), sum.stime() + one.stime(),
                    sum.cutime() + one.cutime(), sum.cstime() + one.cstime(), sum.threads() + one.threads());
        }
        return sum;
    }
}
