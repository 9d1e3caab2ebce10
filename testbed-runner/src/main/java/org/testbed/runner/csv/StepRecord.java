package org.testbed.runner.csv;

import java.util.List;
import java.util.Map;

/**
 * One row of the sidecar {@code steps.csv}: what the runner knows about a step beyond DESIGN.md's
 * columns, keyed like {@code results.csv} (variant, scenario, concurrency, target_rps).
 *
 * @param driverCpuPct the load driver's own CPU time over the step as a percentage of its allowed CPUs
 * @param memcachedCpuPct the runner's memcached's CPU time as a percentage of the load CPUs (0
 *                        when it runs elsewhere or is not the runner's)
 * @param loadCpusBusyPct how busy the load CPUs were over the step, whatever ran there (driver,
 *                        memcached, anything else on the machine), from /proc/stat
 * @param serverCpusBusyPct how busy the server's CPUs were
 * @param stealPct time the hypervisor stole from all CPUs over the step (noisy neighbours)
 * @param otherLoadPct CPU busy time on the server's or the load CPUs that none of the run's
 *                     processes (server, driver, memcached) accounts for, in percent of those CPUs
 *                     (the larger of the two): other programs were running, the figures are noisy
 * @param loadSidePct the load side's share of the load CPUs: the driver, memcached when it shares
 *                    them, and the interrupt and softirq time there (loopback networking)
 * @param loadSaturated true when {@code loadSidePct} exceeded the saturation threshold: the load
 *                      generator, not the server, may have been the limit, so the step's figures
 *                      are suspect
 * @param peakConnections most connections the driver held at once
 * @param serverCpus the CPUs the server was pinned to (taskset list, empty = not pinned)
 * @param loadCpus the CPUs the load driver was pinned to
 * @param delayMs the simulated I/O of the delay scenario (0 for others)
 * @param threads the worker threads of sync variants (TESTBED_THREADS)
 * @param raw the step's raw output file, relative to the run folder
 * @param flamegraph the step's flame graph, relative to the run folder, or empty
 */
public record StepRecord(String variant, String scenario, int concurrency, double targetRps, String driver,
                         double driverCpuMs, double driverCpuPct, double memcachedCpuPct, double loadCpusBusyPct, double serverCpusBusyPct,
                         double stealPct, double otherLoadPct, double loadSidePct, boolean loadSaturated, int peakConnections,
                         String serverCpus, String loadCpus, int delayMs, int threads, String raw, String flamegraph) {

    public static final List<String> COLUMNS = List.of("variant", "scenario", "concurrency", "target_rps", "driver",
            "driver_cpu_ms", "driver_cpu_pct", "memcached_cpu_pct", "load_cpus_busy_pct", "server_cpus_busy_pct", "steal_pct", "other_load_pct", "load_side_pct", "load_saturated", "peak_connections", "server_cpus", "load_cpus",
            "delay_ms", "threads", "raw", "flamegraph");

    public ResultRow.StepKey key() {
        return new ResultRow.StepKey(variant, scenario, concurrency, targetRps);
    }

    public List<String> fields() {
        return List.of(variant, scenario, Integer.toString(concurrency), ResultRow.num(targetRps, 1), driver,
                ResultRow.num(driverCpuMs, 0), ResultRow.num(driverCpuPct, 1), ResultRow.num(memcachedCpuPct, 1),
                ResultRow.num(loadCpusBusyPct, 1),
                ResultRow.num(serverCpusBusyPct, 1), ResultRow.num(stealPct, 1), ResultRow.num(otherLoadPct, 1),
                ResultRow.num(loadSidePct, 1), Boolean.toString(loadSaturated),
                Integer.toString(peakConnections), serverCpus, loadCpus, Integer.toString(delayMs),
                Integer.toString(threads), raw, flamegraph == null ? "" : flamegraph);
    }

    public static StepRecord of(Map<String, String> v) {
        return new StepRecord(v.get("variant"), v.get("scenario"), (int) num(v, "concurrency"), num(v, "target_rps"),
                v.get("driver"), num(v, "driver_cpu_ms"), num(v, "driver_cpu_pct"), num(v, "memcached_cpu_pct"),
                num(v, "load_cpus_busy_pct"),
                num(v, "server_cpus_busy_pct"), num(v, "steal_pct"), num(v, "other_load_pct"),
                num(v, "load_side_pct"), Boolean.parseBoolean(v.get("load_saturated")), (int) num(v, "peak_connections"),
                v.getOrDefault("server_cpus", ""), v.getOrDefault("load_cpus", ""), (int) num(v, "delay_ms"),
                (int) num(v, "threads"), v.getOrDefault("raw", ""), v.getOrDefault("flamegraph", ""));
    }

    private static double num(Map<String, String> v, String k) {
        String s = v.get(k);
        return s == null || s.isBlank() ? 0 : Double.parseDouble(s);
    }
}
