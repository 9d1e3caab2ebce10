package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-CPU time from {@code /proc/stat} (clock ticks since boot), to tell how busy a set of CPUs was
 * during a step whatever ran on them: the load CPUs (driver and memcached) for the saturation flag,
 * the server CPUs, and the time the hypervisor stole from this VM ({@code steal}), which on a shared
 * cloud machine explains noisy figures.
 */
public record CpuTimes(Map<Integer, long[]> perCpu) {
    private static final int USER = 0;
    private static final int IDLE = 3;
    private static final int IOWAIT = 4;
    private static final int STEAL = 7;

    public static CpuTimes read() throws IOException {
        return parse(Files.readString(Path.of("/proc/stat")));
    }

    /** Parses the {@code cpuN user nice system idle iowait irq softirq steal ...} lines. */
    public static CpuTimes parse(String stat) {
        Map<Integer, long[]> cpus = new HashMap<>();
        for (String line : stat.split("\n")) {
            if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                String[] f = line.trim().split("\\s+");
                long[] v = new long[8];
                for (int i = 0; i < v.length && i + 1 < f.length; i++) {
                    v[i] = Long.parseLong(f[i + 1]);
                }
                cpus.put(Integer.parseInt(f[0].substring(3)), v);
            }
        }
        return new CpuTimes(cpus);
    }

    /** Busy share of {@code cpus} between {@code before} and this, in percent (not idle, not iowait; steal excluded). */
    public double busyPct(CpuTimes before, List<Integer> cpus) {
        long busy = 0;
        long total = 0;
        for (int cpu : cpus) {
            long[] a = before.perCpu.get(cpu);
            long[] b = perCpu.get(cpu);
            if (a == null || b == null) {
                continue;
            }
            long t = 0;
            for (int i = USER; i <= STEAL; i++) {
                t += b[i] - a[i];
            }
            long idle = (b[IDLE] - a[IDLE]) + (b[IOWAIT] - a[IOWAIT]) + (b[STEAL] - a[STEAL]);
            busy += t - idle;
            total += t;
        }
        return total > 0 ? 100.0 * busy / total : 0;
    }

    /**
     * User, nice and system time of {@code cpus} in percent: what processes ran, without interrupt
     * and softirq time (loopback networking is mostly softirq, counted on whichever CPU handles it,
     * and belongs to no process's {@code /proc/PID/stat}).
     */
    public double processBusyPct(CpuTimes before, List<Integer> cpus) {
        long busy = 0;
        long total = 0;
        for (int cpu : cpus) {
            long[] a = before.perCpu.get(cpu);
            long[] b = perCpu.get(cpu);
            if (a == null || b == null) {
                continue;
            }
            for (int i = USER; i <= STEAL; i++) {
                total += b[i] - a[i];
            }
            busy += (b[0] - a[0]) + (b[1] - a[1]) + (b[2] - a[2]);
        }
        return total > 0 ? 100.0 * busy / total : 0;
    }

    /** Share of time stolen by the hypervisor on {@code cpus}, in percent. */
    public double stealPct(CpuTimes before, List<Integer> cpus) {
        long steal = 0;
        long total = 0;
        for (int cpu : cpus) {
            long[] a = before.perCpu.get(cpu);
            long[] b = perCpu.get(cpu);
            if (a == null || b == null) {
                continue;
            }
            for (int i = USER; i <= STEAL; i++) {
                total += b[i] - a[i];
            }
            steal += b[STEAL] - a[STEAL];
        }
        return total > 0 ? 100.0 * steal / total : 0;
    }
}
