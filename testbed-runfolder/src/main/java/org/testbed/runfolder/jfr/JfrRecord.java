package org.testbed.runfolder.jfr;

import java.util.List;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.csv.Column;
import org.testbed.runfolder.csv.CsvRow;
import org.testbed.runfolder.figure.Figure;

/**
 * A row of {@code jfr.csv}: the JVM's own account of one sample's window, from the flight recording
 * {@code run --jfr} took of the server (JDK Flight Recorder, the JDK's {@code default} settings),
 * restricted to the load's window. Beside the CPU a request cost it says what the JVM did meanwhile:
 * how often and how long virtual threads were pinned to their carrier, how long the GC and other
 * safepoints stopped every thread, how fast the server allocated, and which monitors threads queued on.
 *
 * @param repeat the sample's fork, from 1
 * @param iteration which measurement of its fork, from 1
 * @param requests the requests completed in the window
 * @param windowS the window's length, seconds
 * @param pinned {@code jdk.VirtualThreadPinned}: a virtual thread that blocked while it could not leave its carrier
 * @param gcPauses {@code jdk.GCPhasePause}: each stop-the-world pause of the collector
 * @param safepoints every safepoint (the GC's among them), from its {@code jdk.SafepointBegin} to its {@code jdk.SafepointEnd}
 * @param allocationMbPerS the allocation rate, MB/s (10^6 bytes), from each thread's {@code jdk.ThreadAllocationStatistics}
 *                         at the recording's start and end (the time between the step's readings)
 * @param allocationKbPerReq those bytes per request, kB (10^3 bytes)
 * @param monitors the three monitors with the most time waited to enter them ({@code jdk.JavaMonitorEnter}), as
 *                 {@code class ms count} separated by {@code "; "}; empty when none was contended long enough to be recorded
 * @param file the recording, relative to the run folder
 */
public record JfrRecord(StepKey key, int repeat, int iteration, long requests, double windowS, Events pinned,
                        Events gcPauses, Events safepoints, double allocationMbPerS, double allocationKbPerReq, String monitors,
                        String file) {

    /**
     * Events of one kind in the window.
     *
     * @param count how many (a whole number; NaN when the server's JDK has no such event)
     * @param totalMs their durations added up, ms
     * @param longestMs the longest, ms (0 when none)
     */
    public record Events(double count, double totalMs, double longestMs) {
        public static final Events NONE = new Events(0, 0, 0);
        /** The server's JDK does not have the event (jdk.VirtualThreadPinned before JDK 21). */
        public static final Events UNKNOWN = new Events(Double.NaN, Double.NaN, Double.NaN);
    }

    private static final Column<JfrRecord> VARIANT = Column.text("variant", r -> r.key.variant());
    private static final Column<JfrRecord> SCENARIO = Column.text("scenario", r -> r.key.scenario());
    private static final Column<JfrRecord> CONCURRENCY = Column.count("concurrency", r -> r.key.concurrency());
    private static final Column<JfrRecord> TARGET_RPS = Column.decimal("target_rps", 1, r -> r.key.targetRps());
    private static final Column<JfrRecord> CONDITIONS = Column.text("conditions", r -> r.key.conditions().label());
    private static final Column<JfrRecord> REPEAT = Column.count("repeat", JfrRecord::repeat);
    private static final Column<JfrRecord> ITERATION = Column.count("iteration", JfrRecord::iteration);
    private static final Column<JfrRecord> REQUESTS = Column.count("requests", JfrRecord::requests);
    private static final Column<JfrRecord> WINDOW_S = Column.decimal("window_s", 3, JfrRecord::windowS);
    private static final Column<JfrRecord> PINNED = Column.decimal("pinned", 0, r -> r.pinned.count());
    private static final Column<JfrRecord> PINNED_MS = Column.decimal("pinned_ms", 3, r -> r.pinned.totalMs());
    private static final Column<JfrRecord> PINNED_MAX_MS = Column.decimal("pinned_max_ms", 3, r -> r.pinned.longestMs());
    private static final Column<JfrRecord> GC_PAUSES = Column.decimal("gc_pauses", 0, r -> r.gcPauses.count());
    private static final Column<JfrRecord> GC_PAUSE_MS = Column.decimal("gc_pause_ms", 3, r -> r.gcPauses.totalMs());
    private static final Column<JfrRecord> GC_PAUSE_MAX_MS = Column.decimal("gc_pause_max_ms", 3, r -> r.gcPauses.longestMs());
    private static final Column<JfrRecord> SAFEPOINTS = Column.decimal("safepoints", 0, r -> r.safepoints.count());
    private static final Column<JfrRecord> SAFEPOINT_MS = Column.decimal("safepoint_ms", 3, r -> r.safepoints.totalMs());
    private static final Column<JfrRecord> SAFEPOINT_MAX_MS = Column.decimal("safepoint_max_ms", 3, r -> r.safepoints.longestMs());
    private static final Column<JfrRecord> ALLOC_MB_PER_S = Column.decimal("alloc_mb_per_s", 1, JfrRecord::allocationMbPerS);
    private static final Column<JfrRecord> ALLOC_KB_PER_REQ = Column.decimal("alloc_kb_per_req", 2, JfrRecord::allocationKbPerReq);
    private static final Column<JfrRecord> MONITORS = Column.text("contended_monitors", JfrRecord::monitors);
    private static final Column<JfrRecord> FILE = Column.text("jfr_file", JfrRecord::file);

    /** jfr.csv's columns, in order. */
    public static final List<Column<JfrRecord>> COLUMNS = List.of(VARIANT, SCENARIO, CONCURRENCY, TARGET_RPS, CONDITIONS,
            REPEAT, ITERATION, REQUESTS, WINDOW_S, PINNED, PINNED_MS, PINNED_MAX_MS, GC_PAUSES, GC_PAUSE_MS, GC_PAUSE_MAX_MS,
            SAFEPOINTS, SAFEPOINT_MS, SAFEPOINT_MAX_MS, ALLOC_MB_PER_S, ALLOC_KB_PER_REQ, MONITORS, FILE);

    /** Reads a record back. */
    public static JfrRecord read(CsvRow v) {
        return new JfrRecord(new StepKey(v.text(VARIANT), v.text(SCENARIO), v.integer(CONCURRENCY), v.decimal(TARGET_RPS, 0),
                Conditions.parse(v.text(CONDITIONS))), v.integer(REPEAT), v.integer(ITERATION), v.count(REQUESTS),
                v.decimal(WINDOW_S), new Events(v.decimal(PINNED), v.decimal(PINNED_MS), v.decimal(PINNED_MAX_MS)),
                new Events(v.decimal(GC_PAUSES), v.decimal(GC_PAUSE_MS), v.decimal(GC_PAUSE_MAX_MS)),
                new Events(v.decimal(SAFEPOINTS), v.decimal(SAFEPOINT_MS), v.decimal(SAFEPOINT_MAX_MS)),
                v.decimal(ALLOC_MB_PER_S), v.decimal(ALLOC_KB_PER_REQ), v.text(MONITORS), v.text(FILE));
    }

    /** The same record under other conditions (compare --conditions matches a run's conditions with each other). */
    public JfrRecord withConditions(Conditions conditions) {
        return new JfrRecord(new StepKey(key.variant(), key.scenario(), key.concurrency(), key.targetRps(), conditions), repeat,
                iteration, requests, windowS, pinned, gcPauses, safepoints, allocationMbPerS, allocationKbPerReq, monitors, file);
    }

    /** This recording's value of {@code figure}, per request; NaN for a figure a recording does not give. */
    public double figure(Figure figure) {
        return switch (figure) {
            case PINNED -> pinnedPerRequest();
            case PINNED_MS -> pinnedMsPerRequest();
            case GC_PAUSE -> gcPauseMsPerRequest();
            default -> Double.NaN;
        };
    }

    /** Pinned virtual threads per request: what {@code compare} weighs as {@code pinned}. */
    public double pinnedPerRequest() {
        return perRequest(pinned.count());
    }

    /** Time virtual threads spent pinned while blocked, ms per request ({@code compare}'s {@code pinned_ms}). */
    public double pinnedMsPerRequest() {
        return perRequest(pinned.totalMs());
    }

    /** Time the collector stopped the server, ms per request ({@code compare}'s {@code gc_pause}). */
    public double gcPauseMsPerRequest() {
        return perRequest(gcPauses.totalMs());
    }

    private double perRequest(double v) {
        return requests > 0 ? v / requests : Double.NaN;
    }
}
