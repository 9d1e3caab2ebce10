package org.testbed.runfolder.csv;

import java.util.List;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow.Latencies;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.figure.Figure;

/**
 * One operation of one sample: a row of {@code operations.csv}. A step's figures mix its kinds of
 * request (the mix's GETs with its writes, the journey's six steps); this row is one kind alone, so
 * that a slow write is not hidden by fast reads. Which kinds a scenario has, and their labels, the
 * load driver decides ({@code GET}, {@code POST}, {@code PUT}, {@code DELETE} for the mix; the step
 * names for the journey; the route for a single-route scenario). A driver that cannot break a step
 * down (wrk) leaves one row that says so instead ({@link #notAvailable}).
 *
 * @param key the step, as results.csv keys it
 * @param repeat which fork measured the sample, from 1, as samples.csv says
 * @param iteration which measurement of its fork, from 1, as samples.csv says
 * @param operation the operation's label
 * @param requests its responses in the window: a sample's operations add up to its requests
 * @param errors of those, the failed ones
 * @param rps {@code requests} over the window's length
 * @param latency its response times, measured as the step's are
 */
public record OperationRecord(StepKey key, int repeat, int iteration, String operation, long requests, long errors,
                              double rps, Latencies latency) {

    /** This operation's value of {@code figure}; NaN for a figure an operation does not have. */
    public double figure(Figure figure) {
        return switch (figure) {
            case RPS -> rps;
            case P50 -> latency.p50Ms();
            case P90 -> latency.p90Ms();
            case P99 -> latency.p99Ms();
            case P999 -> latency.p999Ms();
            case ERRORS -> errors;
            default -> Double.NaN;
        };
    }

    /** The start of the {@code operation} of a sample whose driver gave no figures per operation. */
    public static final String NOT_AVAILABLE = "n/a";

    public OperationRecord {
        repeat = Math.max(1, repeat);
        iteration = Math.max(1, iteration);
    }

    /**
     * The one row of a sample its driver could not break down by operation: {@code operation} says
     * so and why ({@code n/a (wrk keeps one latency histogram for all requests)}), the counts are the
     * sample's (so that its rows still add up to its requests), the latencies are unknown (empty).
     */
    public static OperationRecord notAvailable(StepKey key, int repeat, int iteration, String why, long requests,
                                               long errors, double rps) {
        return new OperationRecord(key, repeat, iteration, notAvailable(why), requests, errors, rps,
                new Latencies(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN));
    }

    /** How a sample without figures per operation is labelled: {@code n/a (why)}. */
    public static String notAvailable(String why) {
        return NOT_AVAILABLE + " (" + why + ")";
    }

    /** Whether this row holds an operation's figures, rather than saying that there are none. */
    public boolean available() {
        return !operation.startsWith(NOT_AVAILABLE);
    }

    private static final Column<OperationRecord> VARIANT = Column.text("variant", r -> r.key.variant());
    private static final Column<OperationRecord> SCENARIO = Column.text("scenario", r -> r.key.scenario());
    private static final Column<OperationRecord> CONCURRENCY = Column.count("concurrency", r -> r.key.concurrency());
    private static final Column<OperationRecord> TARGET_RPS = Column.decimal("target_rps", 1, r -> r.key.targetRps());
    private static final Column<OperationRecord> CONDITIONS = Column.text("conditions", r -> r.key.conditions().label());
    private static final Column<OperationRecord> REPEAT = Column.count("repeat", OperationRecord::repeat);
    private static final Column<OperationRecord> ITERATION = Column.count("iteration", OperationRecord::iteration);
    private static final Column<OperationRecord> OPERATION = Column.text("operation", OperationRecord::operation);
    private static final Column<OperationRecord> REQUESTS = Column.count("requests", OperationRecord::requests);
    private static final Column<OperationRecord> ERRORS = Column.count("errors", OperationRecord::errors);
    private static final Column<OperationRecord> RPS = Column.decimal("rps", 1, OperationRecord::rps);
    private static final Column<OperationRecord> LAT_P50 = Column.decimal("lat_p50_ms", 3, r -> r.latency.p50Ms());
    private static final Column<OperationRecord> LAT_P90 = Column.decimal("lat_p90_ms", 3, r -> r.latency.p90Ms());
    private static final Column<OperationRecord> LAT_P99 = Column.decimal("lat_p99_ms", 3, r -> r.latency.p99Ms());
    private static final Column<OperationRecord> LAT_P999 = Column.decimal("lat_p999_ms", 3, r -> r.latency.p999Ms());
    private static final Column<OperationRecord> LAT_MAX = Column.decimal("lat_max_ms", 3, r -> r.latency.maxMs());

    /** operations.csv's columns, in order: the sample's key as samples.csv has it, the operation, its figures. */
    public static final List<Column<OperationRecord>> COLUMNS = List.of(VARIANT, SCENARIO, CONCURRENCY, TARGET_RPS,
            CONDITIONS, REPEAT, ITERATION, OPERATION, REQUESTS, ERRORS, RPS, LAT_P50, LAT_P90, LAT_P99, LAT_P999, LAT_MAX);

    public static OperationRecord read(CsvRow v) {
        return new OperationRecord(
                new StepKey(v.text(VARIANT), v.text(SCENARIO), v.integer(CONCURRENCY), v.decimal(TARGET_RPS, 0),
                        Conditions.parse(v.text(CONDITIONS))),
                v.integer(REPEAT), v.integer(ITERATION), v.text(OPERATION), v.count(REQUESTS), v.count(ERRORS),
                v.decimal(RPS), new Latencies(v.decimal(LAT_P50), v.decimal(LAT_P90), v.decimal(LAT_P99),
                        v.decimal(LAT_P999), v.decimal(LAT_MAX)));
    }

    /** This row as if measured under {@code other}: how a comparison of two conditions matches their steps. */
    public OperationRecord withConditions(Conditions other) {
        return new OperationRecord(new StepKey(key.variant(), key.scenario(), key.concurrency(), key.targetRps(), other),
                repeat, iteration, operation, requests, errors, rps, latency);
    }
}
