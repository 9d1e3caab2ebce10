package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Per-CPU time from {@code /proc/stat} (clock ticks since boot), to tell how busy a set of CPUs was
 * during a step whatever ran on them: the load CPUs (driver and memcached) for the saturation flag,
 * the server CPUs, and the time the hypervisor stole from this VM ({@code steal}), which on a shared
 * cloud machine explains noisy figures.
 */
public record CpuTimes(Map<Integer, long[]> perCpu) {
    private static final int USER = 0;
    private static final int NICE = 1;
    private static final int SYSTEM = 2;
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
        return sharePct(before, cpus, d -> total(d) - (d[IDLE] + d[IOWAIT] + d[STEAL]));
    }

    /**
     * User, nice and system time of {@code cpus} in percent: what processes ran, without interrupt
     * and softirq time (loopback networking is mostly softirq, counted on whichever CPU handles it,
     * and belongs to no process's {@code /proc/PID/stat}).
     */
    public double processBusyPct(CpuTimes before, List<Integer> cpus) {
        return sharePct(before, cpus, d -> d[USER] + d[NICE] + d[SYSTEM]);
    }

    /** Share of time stolen by the hypervisor on {@code cpus}, in percent. */
    public double stealPct(CpuTimes before, List<Integer> cpus) {
        return sharePct(before, cpus, d -> d[STEAL]);
    }

    /** {@code part} of the per-CPU deltas over all their time (user..steal), summed over {@code cpus}, in percent. */
    private double sharePct(CpuTimes before, List<Integer> cpus, ToLongFunction<long[]> part) {
        long share = 0;
        long total = 0;
        for (int cpu : cpus) {
            long[] a = before.perCpu.get(cpu);
            long[] b = perCpu.get(cpu);
            if (a == null || b == null) {
                continue;
            }
            long[] delta = new long[b.length];
            for (int i = 0; i < b.length; i++) {
                delta[i] = b[i] - a[i];
            }
            share += part.applyAsLong(delta);
            total += total(delta);
        }
        return total > 0 ? 100.0 * share / total : 0;
    }

    private static long total(long[] delta) {
        long sum = 0;
        for (int i = USER; i <= STEAL; i++) {
            sum += delta[i];
        }
        return sum;
    }
}
