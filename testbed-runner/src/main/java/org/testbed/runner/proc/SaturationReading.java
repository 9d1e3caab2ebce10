package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What says a server was short of something, read at one moment without any privilege: its
 * threads' run-queue wait and involuntary switches ({@link ThreadSchedules}), the TCP counters of
 * its network namespace ({@link TcpCounters}), its cgroup's throttling when a CPU limit applies
 * ({@link CgroupCpu}), and how many CPUs it may run on ({@code Cpus_allowed_list} of
 * {@code /proc/PID/status}), to turn a wait into a share of what it could have used. The difference
 * of two readings is what a step's window saw.
 *
 * @param throttling its cgroup's {@code cpu.stat}, or empty when no CPU limit applies
 * @param cpuLimit the cgroup's limit in CPUs, NaN when none
 * @param nanos when it was read, {@link System#nanoTime()} of the reader: the time between two readings is
 *              what their wait is a share of (a little longer than the load's window, as the counts are)
 */
public record SaturationReading(ThreadSchedules threads, TcpCounters tcp, int allowedCpus,
                                Optional<CgroupCpu.Throttling> throttling, double cpuLimit, long nanos) {

    /** Process {@code pid} on this machine now; {@code cgroup} is its limited cgroup ({@link CgroupCpu#locate}), found once. */
    public static SaturationReading read(long pid, Optional<CgroupCpu> cgroup) throws IOException {
        long nanos = System.nanoTime();
        ThreadSchedules threads = ThreadSchedules.read(pid);
        if (threads.threads().isEmpty()) {
            // A kernel built without CONFIG_SCHEDSTATS has no schedstat files: no wait is not a wait of 0.
            throw new IOException("no thread of process " + pid + " could be read in /proc/" + pid + "/task");
        }
        TcpCounters tcp = TcpCounters.read(pid);
        int cpus = allowedCpus(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        Optional<CgroupCpu.Throttling> throttling = cgroup.isPresent() ? Optional.of(cgroup.get().read()) : Optional.empty();
        return new SaturationReading(threads, tcp, cpus, throttling, cgroup.map(CgroupCpu::limitCpus).orElse(Double.NaN),
                nanos);
    }

    /**
     * The number of CPUs in the {@code Cpus_allowed_list:} line of a {@code /proc/PID/status}
     * ({@code 0-3,8,10-11}: 7); 0 when there is no such line.
     */
    public static int allowedCpus(String status) {
        for (String line : status.split("\\R")) {
            if (line.startsWith("Cpus_allowed_list:")) {
                int count = 0;
                for (String range : line.substring(line.indexOf(':') + 1).strip().split(",")) {
                    String[] ends = range.strip().split("-");
                    count += ends.length == 2 ? Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1 : 1;
                }
                return count;
            }
        }
        return 0;
    }

    /**
     * The CPUs' worth of time the server could use: those it may run on, or its cgroup's limit when
     * that is lower (a container given 1.5 CPUs of 4); 0 when not known.
     */
    public double usableCpus() {
        return Double.isNaN(cpuLimit) ? allowedCpus : Math.min(allowedCpus, cpuLimit);
    }
}
