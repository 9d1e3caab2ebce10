package org.testbed.runfolder;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One row of {@code results.csv}: one variant x scenario x step, in exactly docs/DESIGN.md's columns
 * ({@link ResultsCsv#COLUMNS}). Latencies in milliseconds with microsecond resolution, CPU in
 * milliseconds of server CPU time per request (user and system apart), RSS in MiB after the step,
 * GC collections and their time during the step.
 *
 * <p>{@code concurrency} is the closed model's users (0 for an open-model step) and
 * {@code target_rps} the open model's arrival rate (0 for a closed-model step). {@code conditions}
 * says whether it ran over HTTPS, with gzip (see {@link Conditions}).
 *
 * <p>A figure a driver cannot give (Gatling knows nothing of the server's CPU, memory or GC) is an
 * empty field: NaN for the decimal ones, {@link #UNKNOWN_COUNT} for {@code gc_count}.
 */
public record ResultRow(String runId, String startedAt, String host, String arch, String cpuModel, int cpus,
                        String jdk, String variant, String mode, String scenario, String driver, int concurrency,
                        double targetRps, double durationS, long requests, long errors, double rps,
                        double latP50Ms, double latP90Ms, double latP99Ms, double latP999Ms, double latMaxMs,
                        double cpuUserMsPerReq, double cpuSysMsPerReq, double serverRssMb, long gcCount,
                        double gcMs, Conditions conditions) {

    public ResultRow {
        conditions = conditions == null ? Conditions.PLAIN : conditions;
    }

    /** A row measured under no particular condition (plain HTTP, no gzip). */
    public ResultRow(String runId, String startedAt, String host, String arch, String cpuModel, int cpus,
                     String jdk, String variant, String mode, String scenario, String driver, int concurrency,
                     double targetRps, double durationS, long requests, long errors, double rps,
                     double latP50Ms, double latP90Ms, double latP99Ms, double latP999Ms, double latMaxMs,
                     double cpuUserMsPerReq, double cpuSysMsPerReq, double serverRssMb, long gcCount, double gcMs) {
        this(runId, startedAt, host, arch, cpuModel, cpus, jdk, variant, mode, scenario, driver, concurrency, targetRps,
                durationS, requests, errors, rps, latP50Ms, latP90Ms, latP99Ms, latP999Ms, latMaxMs, cpuUserMsPerReq,
                cpuSysMsPerReq, serverRssMb, gcCount, gcMs, Conditions.PLAIN);
    }

    /** This row as if measured under {@code other}: how a comparison of two conditions matches their steps. */
    public ResultRow withConditions(Conditions other) {
        return new ResultRow(runId, startedAt, host, arch, cpuModel, cpus, jdk, variant, mode, scenario, driver, concurrency,
                targetRps, durationS, requests, errors, rps, latP50Ms, latP90Ms, latP99Ms, latP999Ms, latMaxMs,
                cpuUserMsPerReq, cpuSysMsPerReq, serverRssMb, gcCount, gcMs, other);
    }

    /** {@code gc_count} when the driver cannot know it; written as an empty field. */
    public static final long UNKNOWN_COUNT = -1;

    /** Server CPU time per request, user plus system. */
    public double cpuMsPerReq() {
        return cpuUserMsPerReq + cpuSysMsPerReq;
    }

    public boolean isOpen() {
        return targetRps > 0;
    }

    /** What identifies a step across runs: variant, scenario, the level and the conditions. */
    public StepKey key() {
        return new StepKey(variant, scenario, concurrency, targetRps, conditions);
    }

    /** The fields in column order, formatted. */
    public List<String> fields() {
        return List.of(runId, startedAt, host, arch, cpuModel, Integer.toString(cpus), jdk, variant, mode, scenario,
                driver, Integer.toString(concurrency), num(targetRps, 1), num(durationS, 3), Long.toString(requests),
                Long.toString(errors), num(rps, 1), num(latP50Ms, 3), num(latP90Ms, 3), num(latP99Ms, 3),
                num(latP999Ms, 3), num(latMaxMs, 3), num(cpuUserMsPerReq, 5), num(cpuSysMsPerReq, 5),
                num(serverRssMb, 1), gcCount < 0 ? "" : Long.toString(gcCount), num(gcMs, 1), conditions.label());
    }

    /** Reads a row from a header-to-value map. */
    public static ResultRow of(Map<String, String> v) {
        return new ResultRow(v.get("run_id"), v.get("started_at"), v.get("host"), v.get("arch"), v.get("cpu_model"),
                i(v, "cpus"), v.get("jdk"), v.get("variant"), v.get("mode"), v.get("scenario"), v.get("driver"),
                i(v, "concurrency"), d(v, "target_rps"), d(v, "duration_s"), l(v, "requests"), l(v, "errors"),
                d(v, "rps"), d(v, "lat_p50_ms"), d(v, "lat_p90_ms"), d(v, "lat_p99_ms"), d(v, "lat_p999_ms"),
                d(v, "lat_max_ms"), d(v, "cpu_user_ms_per_req"), d(v, "cpu_sys_ms_per_req"), d(v, "server_rss_mb"),
                count(v, "gc_count"), d(v, "gc_ms"), Conditions.parse(v.get("conditions")));
    }

    /**
     * A figure with {@code decimals} decimals; NaN or infinite (a figure the driver cannot give) is
     * an empty field.
     */
    public static String num(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static int i(Map<String, String> v, String k) {
        String s = v.get(k);
        return s == null || s.isBlank() ? 0 : (int) Double.parseDouble(s);
    }

    private static long l(Map<String, String> v, String k) {
        String s = v.get(k);
        return s == null || s.isBlank() ? 0 : (long) Double.parseDouble(s);
    }

    /** A count that may be unknown: blank reads as {@link #UNKNOWN_COUNT}. */
    private static long count(Map<String, String> v, String k) {
        String s = v.get(k);
        return s == null || s.isBlank() ? UNKNOWN_COUNT : (long) Double.parseDouble(s);
    }

    private static double d(Map<String, String> v, String k) {
        String s = v.get(k);
        return s == null || s.isBlank() ? Double.NaN : Double.parseDouble(s);
    }

    /**
     * Variant, scenario, level and conditions: rows of two runs with the same key are the same step.
     * A step over HTTPS (or with gzip) is never the same step as a plain one.
     */
    public record StepKey(String variant, String scenario, int concurrency, double targetRps, Conditions conditions) {
        /**
         * The level as the run folder's file names write it ({@code mix-c0064...}, {@code mix-r05000...}):
         * the raw output, the flame graphs and their collapsed stacks.
         */
        public String levelSlug() {
            return levelSlug(concurrency, targetRps);
        }

        /** {@link #levelSlug()} of a closed ({@code concurrency}) or an open ({@code targetRps}) level. */
        public static String levelSlug(int concurrency, double targetRps) {
            return targetRps > 0 ? String.format(Locale.ROOT, "r%05.0f", targetRps) : String.format(Locale.ROOT, "c%04d", concurrency);
        }

        public StepKey {
            conditions = conditions == null ? Conditions.PLAIN : conditions;
        }

        public String level() {
            return targetRps > 0 ? String.format(Locale.ROOT, "%.0f/s", targetRps) : "c=" + concurrency;
        }

        /** The level, followed by the conditions unless plain: {@code c=64}, {@code c=64 tls+gzip}. */
        public String describe() {
            return conditions.equals(Conditions.PLAIN) ? level() : level() + " " + conditions.label();
        }
    }
}
