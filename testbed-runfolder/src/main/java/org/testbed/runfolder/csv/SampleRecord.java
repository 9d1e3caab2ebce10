package org.testbed.runfolder.csv;

import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.ResultRow;
import java.util.List;
import java.util.Map;

/**
 * One measurement of one step: a row of {@code samples.csv}. A run measures every step in
 * {@code --forks} freshly started servers (as JMH forks a JVM per fork), each warmed up once and
 * measured {@code --iterations} times in a row, and keeps every sample here; {@code results.csv}
 * then holds the median of a step's samples and {@code steps.csv} their spread. {@code compare}
 * reads this file to tell noise from a change, fork by fork ({@code ForkedSamples}).
 *
 * @param repeat which fork (pass of the run, a fresh server) measured it, from 1
 * @param rps completed requests per second
 * @param latP99Ms p99 latency (for an open-model step measured from the intended start)
 * @param cpuMsPerReq server CPU time per request, user plus system
 * @param latP99UncorrectedMs open model: p99 measured from the actual send (wrk2's {@code -U}); NaN for closed steps
 * @param scheduleLagP99Ms open model: p99 of how late a request was sent after its intended start; NaN for closed steps
 * @param warmupS the warm-up (seconds of load) the server had before this scenario's first step
 * @param steady false when the step's own 1-second windows still trended (see {@code SteadyState})
 * @param raw the sample's raw output file, relative to the run folder
 * @param warmupSettled whether that warm-up reached the server's steady state before its limit
 *                      (throughput no longer rising, JIT quiet); false: the sample may have measured a
 *                      JVM still compiling
 * @param conditions HTTPS, gzip: what the step ran under ({@link Conditions})
 * @param tlsHandshakes TLS handshakes the driver made for this sample (0 over plain HTTP)
 * @param gzipResponses responses that came gzip-compressed in this sample's window (0 without gzip)
 * @param iteration which measurement of its fork it is, from 1 (samples of one fork share a JVM and its warm-up)
 * @param otherLoadPct CPU used by processes outside the run during the window, % of the machine's CPUs
 * @param loadSaturated whether the load side (driver, memcached) was saturated during the window
 */
public record SampleRecord(String variant, String scenario, int concurrency, double targetRps, int repeat,
                           double rps, double latP99Ms, double cpuMsPerReq, long errors,
                           double latP99UncorrectedMs, double scheduleLagP99Ms, double warmupS, boolean steady,
                           String raw, boolean warmupSettled, Conditions conditions, long tlsHandshakes,
                           long gzipResponses, int iteration, double otherLoadPct, boolean loadSaturated) {

    public static final List<String> COLUMNS = List.of("variant", "scenario", "concurrency", "target_rps", "repeat",
            "rps", "lat_p99_ms", "cpu_ms_per_req", "errors", "lat_p99_uncorrected_ms", "schedule_lag_p99_ms",
            "warmup_s", "steady", "raw", "warmup_settled", "conditions", "tls_handshakes", "gzip_responses",
            "iteration", "other_load_pct", "load_saturated");

    /** Other load on the machine above which a sample is NOT QUIET, % of the machine's CPUs. */
    public static final double NOT_QUIET_PCT = 15;

    public SampleRecord {
        conditions = conditions == null ? Conditions.PLAIN : conditions;
        iteration = Math.max(1, iteration);
    }

    /** A sample of a plain step (no TLS, no gzip). */
    public SampleRecord(String variant, String scenario, int concurrency, double targetRps, int repeat,
                        double rps, double latP99Ms, double cpuMsPerReq, long errors,
                        double latP99UncorrectedMs, double scheduleLagP99Ms, double warmupS, boolean steady,
                        String raw, boolean warmupSettled) {
        this(variant, scenario, concurrency, targetRps, repeat, rps, latP99Ms, cpuMsPerReq, errors, latP99UncorrectedMs,
                scheduleLagP99Ms, warmupS, steady, raw, warmupSettled, Conditions.PLAIN, 0, 0, 1, 0, false);
    }

    /** This sample as if measured under {@code other}: how a comparison of two conditions matches their steps. */
    public SampleRecord withConditions(Conditions other) {
        return new SampleRecord(variant, scenario, concurrency, targetRps, repeat, rps, latP99Ms, cpuMsPerReq, errors,
                latP99UncorrectedMs, scheduleLagP99Ms, warmupS, steady, raw, warmupSettled, other, tlsHandshakes,
                gzipResponses, iteration, otherLoadPct, loadSaturated);
    }

    /** Whether processes outside the run used more than {@value #NOT_QUIET_PCT} % of the CPUs during its window. */
    public boolean notQuiet() {
        return otherLoadPct > NOT_QUIET_PCT;
    }

    public ResultRow.StepKey key() {
        return new ResultRow.StepKey(variant, scenario, concurrency, targetRps, conditions);
    }

    public List<String> fields() {
        return List.of(variant, scenario, Integer.toString(concurrency), ResultRow.num(targetRps, 1),
                Integer.toString(repeat), ResultRow.num(rps, 1), ResultRow.num(latP99Ms, 3),
                ResultRow.num(cpuMsPerReq, 5), Long.toString(errors), ResultRow.num(latP99UncorrectedMs, 3),
                ResultRow.num(scheduleLagP99Ms, 3), ResultRow.num(warmupS, 1), Boolean.toString(steady), raw,
                Boolean.toString(warmupSettled), conditions.label(), Long.toString(tlsHandshakes),
                Long.toString(gzipResponses), Integer.toString(iteration), ResultRow.num(otherLoadPct, 1),
                Boolean.toString(loadSaturated));
    }

    public static SampleRecord of(Map<String, String> v) {
        return new SampleRecord(v.get("variant"), v.get("scenario"), (int) d(v, "concurrency", 0), d(v, "target_rps", 0),
                (int) d(v, "repeat", 1), d(v, "rps", Double.NaN), d(v, "lat_p99_ms", Double.NaN),
                d(v, "cpu_ms_per_req", Double.NaN), (long) d(v, "errors", 0), d(v, "lat_p99_uncorrected_ms", Double.NaN),
                d(v, "schedule_lag_p99_ms", Double.NaN), d(v, "warmup_s", Double.NaN),
                !"false".equals(v.get("steady")), v.getOrDefault("raw", ""), !"false".equals(v.get("warmup_settled")),
                Conditions.parse(v.get("conditions")), (long) d(v, "tls_handshakes", 0), (long) d(v, "gzip_responses", 0),
                (int) d(v, "iteration", 1), d(v, "other_load_pct", 0), "true".equals(v.get("load_saturated")));
    }

    private static double d(Map<String, String> v, String k, double absent) {
        String s = v.get(k);
        return s == null || s.isBlank() ? absent : Double.parseDouble(s);
    }
}
