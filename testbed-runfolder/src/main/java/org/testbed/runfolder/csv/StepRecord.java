package org.testbed.runfolder.csv;

import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.ResultRow;
import java.util.List;
import java.util.Map;
import org.testbed.runfolder.stats.Spread;

/**
 * One row of the sidecar {@code steps.csv}: what the runner knows about a step beyond docs/DESIGN.md's
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
 * @param repeats how many samples the step's figures are the median of ({@code --repeat})
 * @param rps the spread of throughput over the repeats
 * @param p99 the spread of p99 latency (ms) over the repeats
 * @param cpu the spread of server CPU ms per request over the repeats
 * @param warmupS the warm-up the server had before this scenario (seconds of load, median over the
 *                repeats): until throughput stopped rising, bounded by {@code --warmup}
 * @param notSteadySamples how many of the samples still trended within their own window
 * @param latP99UncorrectedMs open model: median p99 from the actual send (as wrk2 -U); NaN when closed
 * @param scheduleLagP99Ms open model: median p99 of how late the driver sent after the intended start; NaN when closed
 * @param warmupUnsettledSamples how many of the samples followed a warm-up that reached its limit before the
 *                               server was steady (throughput still rising or the JIT still compiling)
 * @param conditions HTTPS, gzip: what the step ran under ({@link Conditions}), part of its key
 * @param tlsHandshakes TLS handshakes the driver made in the median sample (0 over plain HTTP)
 * @param gzipResponses responses that came gzip-compressed in the median sample (0 without gzip)
 * @param sla the SLA this step probed for ({@code --sla}: a step of a capacity search, e.g. {@code p99<=5ms});
 *            empty for a step of the planned levels
 */
public record StepRecord(String variant, String scenario, int concurrency, double targetRps, String driver,
                         double driverCpuMs, double driverCpuPct, double memcachedCpuPct, double loadCpusBusyPct, double serverCpusBusyPct,
                         double stealPct, double otherLoadPct, double loadSidePct, boolean loadSaturated, int peakConnections,
                         String serverCpus, String loadCpus, int delayMs, int threads, String raw, String flamegraph,
                         int repeats, Spread rps, Spread p99, Spread cpu, double warmupS, int notSteadySamples,
                         double latP99UncorrectedMs, double scheduleLagP99Ms,
                         int warmupUnsettledSamples, Conditions conditions, long tlsHandshakes, long gzipResponses,
                         String sla) {

    public static final List<String> COLUMNS = List.of("variant", "scenario", "concurrency", "target_rps", "driver",
            "driver_cpu_ms", "driver_cpu_pct", "memcached_cpu_pct", "load_cpus_busy_pct", "server_cpus_busy_pct", "steal_pct", "other_load_pct", "load_side_pct", "load_saturated", "peak_connections", "server_cpus", "load_cpus",
            "delay_ms", "threads", "raw", "flamegraph", "repeats",
            "rps_min", "rps_max", "rps_ci_low", "rps_ci_high",
            "lat_p99_min_ms", "lat_p99_max_ms", "lat_p99_ci_low_ms", "lat_p99_ci_high_ms",
            "cpu_ms_per_req_min", "cpu_ms_per_req_max", "cpu_ms_per_req_ci_low", "cpu_ms_per_req_ci_high",
            "ci_confidence", "warmup_s", "steady", "not_steady_samples", "lat_p99_uncorrected_ms", "schedule_lag_p99_ms",
            "warmup_unsettled_samples", "conditions", "tls_handshakes", "gzip_responses", "sla");

    public StepRecord {
        conditions = conditions == null ? Conditions.PLAIN : conditions;
        sla = sla == null ? "" : sla;
    }

    /** A plain step's record (no TLS, no gzip). */
    public StepRecord(String variant, String scenario, int concurrency, double targetRps, String driver,
                      double driverCpuMs, double driverCpuPct, double memcachedCpuPct, double loadCpusBusyPct,
                      double serverCpusBusyPct, double stealPct, double otherLoadPct, double loadSidePct,
                      boolean loadSaturated, int peakConnections, String serverCpus, String loadCpus, int delayMs,
                      int threads, String raw, String flamegraph, int repeats, Spread rps, Spread p99, Spread cpu,
                      double warmupS, int notSteadySamples, double latP99UncorrectedMs, double scheduleLagP99Ms,
                      int warmupUnsettledSamples) {
        this(variant, scenario, concurrency, targetRps, driver, driverCpuMs, driverCpuPct, memcachedCpuPct,
                loadCpusBusyPct, serverCpusBusyPct, stealPct, otherLoadPct, loadSidePct, loadSaturated, peakConnections,
                serverCpus, loadCpus, delayMs, threads, raw, flamegraph, repeats, rps, p99, cpu, warmupS,
                notSteadySamples, latP99UncorrectedMs, scheduleLagP99Ms, warmupUnsettledSamples, Conditions.PLAIN, 0, 0, "");
    }

    /** Whether every sample of the step was steady within its own window. */
    public boolean steady() {
        return notSteadySamples == 0;
    }

    public ResultRow.StepKey key() {
        return new ResultRow.StepKey(variant, scenario, concurrency, targetRps, conditions);
    }

    public List<String> fields() {
        return List.of(variant, scenario, Integer.toString(concurrency), ResultRow.num(targetRps, 1), driver,
                ResultRow.num(driverCpuMs, 0), ResultRow.num(driverCpuPct, 1), ResultRow.num(memcachedCpuPct, 1),
                ResultRow.num(loadCpusBusyPct, 1),
                ResultRow.num(serverCpusBusyPct, 1), ResultRow.num(stealPct, 1), ResultRow.num(otherLoadPct, 1),
                ResultRow.num(loadSidePct, 1), Boolean.toString(loadSaturated),
                Integer.toString(peakConnections), serverCpus, loadCpus, Integer.toString(delayMs),
                Integer.toString(threads), raw, flamegraph == null ? "" : flamegraph, Integer.toString(repeats),
                ResultRow.num(rps.min(), 1), ResultRow.num(rps.max(), 1), ResultRow.num(rps.ciLow(), 1), ResultRow.num(rps.ciHigh(), 1),
                ResultRow.num(p99.min(), 3), ResultRow.num(p99.max(), 3), ResultRow.num(p99.ciLow(), 3), ResultRow.num(p99.ciHigh(), 3),
                ResultRow.num(cpu.min(), 5), ResultRow.num(cpu.max(), 5), ResultRow.num(cpu.ciLow(), 5), ResultRow.num(cpu.ciHigh(), 5),
                ResultRow.num(rps.confidence(), 4), ResultRow.num(warmupS, 1), Boolean.toString(steady()),
                Integer.toString(notSteadySamples), ResultRow.num(latP99UncorrectedMs, 3), ResultRow.num(scheduleLagP99Ms, 3),
                Integer.toString(warmupUnsettledSamples), conditions.label(), Long.toString(tlsHandshakes),
                Long.toString(gzipResponses), sla);
    }

    public static StepRecord of(Map<String, String> v) {
        return new StepRecord(v.get("variant"), v.get("scenario"), (int) num(v, "concurrency"), num(v, "target_rps"),
                v.get("driver"), num(v, "driver_cpu_ms"), num(v, "driver_cpu_pct"), num(v, "memcached_cpu_pct"),
                num(v, "load_cpus_busy_pct"),
                num(v, "server_cpus_busy_pct"), num(v, "steal_pct"), num(v, "other_load_pct"),
                num(v, "load_side_pct"), Boolean.parseBoolean(v.get("load_saturated")), (int) num(v, "peak_connections"),
                v.getOrDefault("server_cpus", ""), v.getOrDefault("load_cpus", ""), (int) num(v, "delay_ms"),
                (int) num(v, "threads"), v.getOrDefault("raw", ""), v.getOrDefault("flamegraph", ""),
                Math.max(1, (int) num(v, "repeats")), spread(v, "rps_", ""), spread(v, "lat_p99_", "_ms"),
                spread(v, "cpu_ms_per_req_", ""), nan(v, "warmup_s"), (int) num(v, "not_steady_samples"),
                nan(v, "lat_p99_uncorrected_ms"), nan(v, "schedule_lag_p99_ms"), (int) num(v, "warmup_unsettled_samples"),
                Conditions.parse(v.get("conditions")), (long) num(v, "tls_handshakes"), (long) num(v, "gzip_responses"),
                v.getOrDefault("sla", ""));
    }

    /** A spread from its columns; a steps.csv from before repeats has none (read as unknown). */
    private static Spread spread(Map<String, String> v, String prefix, String suffix) {
        int n = Math.max(1, (int) num(v, "repeats"));
        return new Spread(n, Double.NaN, nan(v, prefix + "min" + suffix), nan(v, prefix + "max" + suffix),
                nan(v, prefix + "ci_low" + suffix), nan(v, prefix + "ci_high" + suffix), nan(v, "ci_confidence"));
    }

    private static double nan(Map<String, String> v, String k) {
        String s = v.get(k);
        return s == null || s.isBlank() ? Double.NaN : Double.parseDouble(s);
    }

    private static double num(Map<String, String> v, String k) {
        String s = v.get(k);
        return s == null || s.isBlank() ? 0 : Double.parseDouble(s);
    }
}
