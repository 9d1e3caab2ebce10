package org.testbed.runfolder.csv;

import java.util.List;
import java.util.Locale;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.figure.Figure;

/**
 * One row of {@code results.csv}: one variant x scenario x step, in exactly docs/DESIGN.md's columns
 * ({@link #COLUMNS}, defined once here). Latencies in milliseconds with microsecond resolution, CPU in
 * milliseconds of server CPU time per request (user and system apart), RSS in MiB after the step,
 * GC collections and their time during the step.
 *
 * <p>{@code concurrency} is the closed model's users (0 for an open-model step) and
 * {@code target_rps} the open model's arrival rate (0 for a closed-model step). {@code conditions}
 * says whether it ran over HTTPS, with gzip (see {@link Conditions}).
 *
 * <p>A figure a driver cannot give (Gatling knows nothing of the server's CPU, memory or GC) is an
 * empty field: NaN for the decimal ones, {@link #UNKNOWN_COUNT} for {@code gc_count}.
 *
 * @param origin where and when it was measured
 * @param key the step: variant, scenario, level, conditions
 * @param mode the variant's request handling (sync, async, virtual, reactive...)
 * @param driver the load driver that measured it
 * @param throughput what was answered in the window
 * @param latency response time percentiles
 * @param server what the server spent per request
 */
public record ResultRow(Origin origin, StepKey key, String mode, String driver, Throughput throughput,
                        Latencies latency, ServerCost server) {

    /** {@code gc_count} when the driver cannot know it; written as an empty field. */
    public static final long UNKNOWN_COUNT = -1;

    /**
     * Where and when a row was measured.
     *
     * @param startedAt when its window began (ISO-8601)
     * @param cpus the CPUs the machine gave the run (before any pinning)
     * @param jdk the server's JDK, as the runner labels it
     */
    public record Origin(String runId, String startedAt, String host, String arch, String cpuModel, int cpus, String jdk) {
    }

    /**
     * What was answered in the window.
     *
     * @param durationS the measured window
     * @param requests responses in it
     * @param errors of those, the failed ones (plus I/O errors and time-outs)
     * @param rps completed requests per second
     */
    public record Throughput(double durationS, long requests, long errors, double rps) {
    }

    /** Response time percentiles and the largest, in milliseconds. */
    public record Latencies(double p50Ms, double p90Ms, double p99Ms, double p999Ms, double maxMs) {
    }

    /**
     * What the server spent: CPU per request (user and system), memory after the step, GC during it.
     *
     * @param gcCount collections, or {@link #UNKNOWN_COUNT}
     */
    public record ServerCost(double cpuUserMsPerReq, double cpuSysMsPerReq, double rssMb, long gcCount, double gcMs) {
        /** A driver that cannot see the server (Gatling). */
        public static final ServerCost UNKNOWN = new ServerCost(Double.NaN, Double.NaN, Double.NaN, UNKNOWN_COUNT, Double.NaN);

        /** CPU per request, user plus system. */
        public double cpuMsPerReq() {
            return cpuUserMsPerReq + cpuSysMsPerReq;
        }
    }

    /**
     * This row's value of {@code figure}: the driver's throughput, percentiles and errors, the server's
     * CPU per request; NaN for a figure results.csv does not hold (steps.csv and samples.csv hold the others).
     */
    public double figure(Figure figure) {
        return switch (figure) {
            case RPS -> throughput.rps();
            case P50 -> latency.p50Ms();
            case P90 -> latency.p90Ms();
            case P99 -> latency.p99Ms();
            case P999 -> latency.p999Ms();
            case ERRORS -> throughput.errors();
            case CPU -> server.cpuMsPerReq();
            default -> Double.NaN;
        };
    }

    private static final Column<ResultRow> RUN_ID = Column.text("run_id", r -> r.origin.runId());
    private static final Column<ResultRow> STARTED_AT = Column.text("started_at", r -> r.origin.startedAt());
    private static final Column<ResultRow> HOST = Column.text("host", r -> r.origin.host());
    private static final Column<ResultRow> ARCH = Column.text("arch", r -> r.origin.arch());
    private static final Column<ResultRow> CPU_MODEL = Column.text("cpu_model", r -> r.origin.cpuModel());
    private static final Column<ResultRow> CPUS = Column.count("cpus", r -> r.origin.cpus());
    private static final Column<ResultRow> JDK = Column.text("jdk", r -> r.origin.jdk());
    private static final Column<ResultRow> VARIANT = Column.text("variant", r -> r.key.variant());
    private static final Column<ResultRow> MODE = Column.text("mode", ResultRow::mode);
    private static final Column<ResultRow> SCENARIO = Column.text("scenario", r -> r.key.scenario());
    private static final Column<ResultRow> DRIVER = Column.text("driver", ResultRow::driver);
    private static final Column<ResultRow> CONCURRENCY = Column.count("concurrency", r -> r.key.concurrency());
    private static final Column<ResultRow> TARGET_RPS = Column.decimal("target_rps", 1, r -> r.key.targetRps());
    private static final Column<ResultRow> DURATION_S = Column.decimal("duration_s", 3, r -> r.throughput.durationS());
    private static final Column<ResultRow> REQUESTS = Column.count("requests", r -> r.throughput.requests());
    private static final Column<ResultRow> ERRORS = Column.count("errors", r -> r.throughput.errors());
    private static final Column<ResultRow> RPS = Column.figure("rps", Figure.RPS, r -> r.throughput.rps());
    private static final Column<ResultRow> LAT_P50 = Column.figure("lat_p50_ms", Figure.P50, r -> r.latency.p50Ms());
    private static final Column<ResultRow> LAT_P90 = Column.figure("lat_p90_ms", Figure.P90, r -> r.latency.p90Ms());
    private static final Column<ResultRow> LAT_P99 = Column.figure("lat_p99_ms", Figure.P99, r -> r.latency.p99Ms());
    private static final Column<ResultRow> LAT_P999 = Column.figure("lat_p999_ms", Figure.P999, r -> r.latency.p999Ms());
    private static final Column<ResultRow> LAT_MAX = Column.decimal("lat_max_ms", 3, r -> r.latency.maxMs());
    private static final Column<ResultRow> CPU_USER = Column.figure("cpu_user_ms_per_req", Figure.CPU, r -> r.server.cpuUserMsPerReq());
    private static final Column<ResultRow> CPU_SYS = Column.figure("cpu_sys_ms_per_req", Figure.CPU, r -> r.server.cpuSysMsPerReq());
    private static final Column<ResultRow> RSS = Column.decimal("server_rss_mb", 1, r -> r.server.rssMb());
    private static final Column<ResultRow> GC_COUNT = Column.number("gc_count", r -> r.server.gcCount() < 0 ? "" : Long.toString(r.server.gcCount()));
    private static final Column<ResultRow> GC_MS = Column.decimal("gc_ms", 1, r -> r.server.gcMs());
    private static final Column<ResultRow> CONDITIONS = Column.text("conditions", r -> r.key.conditions().label());

    /**
     * docs/DESIGN.md, "Results". Do not reorder or rename; extras belong in steps.csv. The one column
     * added since the first schema, {@code conditions}, is last, and a file without it reads as
     * plain (what it measured): a row must say whether it was HTTPS, or two runs' rows would be
     * put side by side wrongly.
     */
    public static final List<Column<ResultRow>> COLUMNS = List.of(
            RUN_ID, STARTED_AT, HOST, ARCH, CPU_MODEL, CPUS, JDK, VARIANT, MODE, SCENARIO, DRIVER, CONCURRENCY,
            TARGET_RPS, DURATION_S, REQUESTS, ERRORS, RPS, LAT_P50, LAT_P90, LAT_P99, LAT_P999, LAT_MAX, CPU_USER,
            CPU_SYS, RSS, GC_COUNT, GC_MS, CONDITIONS);

    /** Reads a row back; the columns are found by name, and a file without {@code conditions} reads as plain. */
    public static ResultRow read(CsvRow v) {
        return new ResultRow(
                new Origin(v.text(RUN_ID), v.text(STARTED_AT), v.text(HOST), v.text(ARCH), v.text(CPU_MODEL),
                        v.integer(CPUS), v.text(JDK)),
                new StepKey(v.text(VARIANT), v.text(SCENARIO), v.integer(CONCURRENCY), v.decimal(TARGET_RPS, 0),
                        Conditions.parse(v.text(CONDITIONS))),
                v.text(MODE), v.text(DRIVER),
                new Throughput(v.decimal(DURATION_S), v.count(REQUESTS), v.count(ERRORS), v.decimal(RPS)),
                new Latencies(v.decimal(LAT_P50), v.decimal(LAT_P90), v.decimal(LAT_P99), v.decimal(LAT_P999),
                        v.decimal(LAT_MAX)),
                new ServerCost(v.decimal(CPU_USER), v.decimal(CPU_SYS), v.decimal(RSS),
                        v.has(GC_COUNT) ? v.count(GC_COUNT) : UNKNOWN_COUNT, v.decimal(GC_MS)));
    }

    /** This row as if measured under {@code other}: how a comparison of two conditions matches their steps. */
    public ResultRow withConditions(Conditions other) {
        return new ResultRow(origin, new StepKey(key.variant(), key.scenario(), key.concurrency(), key.targetRps(), other),
                mode, driver, throughput, latency, server);
    }

    public String variant() {
        return key.variant();
    }

    public String scenario() {
        return key.scenario();
    }

    public int concurrency() {
        return key.concurrency();
    }

    public double targetRps() {
        return key.targetRps();
    }

    public Conditions conditions() {
        return key.conditions();
    }

    public boolean isOpen() {
        return key.targetRps() > 0;
    }

    /**
     * A figure with {@code decimals} decimals; NaN or infinite (a figure the driver cannot give) is
     * an empty field.
     */
    public static String num(double value, int decimals) {
        return Column.decimal(value, decimals);
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
