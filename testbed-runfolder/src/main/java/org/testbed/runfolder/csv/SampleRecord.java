package org.testbed.runfolder.csv;

import java.util.List;
import java.util.stream.Stream;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.figure.Figure;

/**
 * One measurement of one step: a row of {@code samples.csv}. A run measures every step in
 * {@code --forks} freshly started servers (as JMH forks a JVM per fork), each warmed up once and
 * measured {@code --iterations} times in a row, and keeps every sample here; {@code results.csv}
 * then holds the median of a step's samples and {@code steps.csv} their spread. {@code compare}
 * reads this file to tell noise from a change, fork by fork ({@code ForkedSamples}).
 *
 * @param key the step, as results.csv keys it
 * @param repeat which fork (pass of the run, a fresh server) measured it, from 1
 * @param iteration which measurement of its fork it is, from 1 (samples of one fork share a JVM and its warm-up)
 * @param figures what it measured
 * @param open the open model's own figures ({@link StepRecord.OpenModel#CLOSED} for a closed step)
 * @param caveats what may make its figures less than the server's steady state
 * @param raw the sample's raw output file, relative to the run folder
 * @param tlsHandshakes TLS handshakes the driver made for this sample (0 over plain HTTP)
 * @param gzipResponses responses that came gzip-compressed in this sample's window (0 without gzip)
 * @param saturation whether the server waited for CPUs, its listen queue or its cgroup's quota in this sample's
 *                   window ({@link Saturation#UNKNOWN} when not read)
 * @param measured the probes' figures ({@link Measured}): their columns follow the declared figures
 * @param leftOut whether it is left out of its step's figure: its window ran while the machine was slow
 *                ({@code --slow-machine}; {@link Figure#SERVER_SPEED}, {@link Figure#LOAD_SPEED}), so the step's
 *                median, spread and comparison are its other samples' (all of them when every one was slow)
 */
public record SampleRecord(StepKey key, int repeat, int iteration, Figures figures, StepRecord.OpenModel open,
                           Caveats caveats, String raw, long tlsHandshakes, long gzipResponses, Saturation saturation,
                           Measured measured, boolean leftOut) {

    /** A sample in its step's figure. */
    public SampleRecord(StepKey key, int repeat, int iteration, Figures figures, StepRecord.OpenModel open, Caveats caveats,
                        String raw, long tlsHandshakes, long gzipResponses, Saturation saturation, Measured measured) {
        this(key, repeat, iteration, figures, open, caveats, raw, tlsHandshakes, gzipResponses, saturation, measured, false);
    }

    /** A sample without probes' figures. */
    public SampleRecord(StepKey key, int repeat, int iteration, Figures figures, StepRecord.OpenModel open, Caveats caveats,
                        String raw, long tlsHandshakes, long gzipResponses, Saturation saturation) {
        this(key, repeat, iteration, figures, open, caveats, raw, tlsHandshakes, gzipResponses, saturation, Measured.NONE);
    }

    /** A sample without saturation readings. */
    public SampleRecord(StepKey key, int repeat, int iteration, Figures figures, StepRecord.OpenModel open, Caveats caveats,
                        String raw, long tlsHandshakes, long gzipResponses) {
        this(key, repeat, iteration, figures, open, caveats, raw, tlsHandshakes, gzipResponses, Saturation.UNKNOWN);
    }

    /** Other load on the machine above which a sample is NOT QUIET, % of the machine's CPUs. */
    public static final double NOT_QUIET_PCT = 15;

    /**
     * The figures {@code compare} weighs.
     *
     * @param rps completed requests per second
     * @param latP99Ms p99 latency (for an open-model step measured from the intended start)
     * @param cpuMsPerReq server CPU time per request, user plus system
     */
    public record Figures(double rps, double latP99Ms, double cpuMsPerReq, long errors) {
    }

    /**
     * What may make a sample's figures less than the server's steady state; shown beside a verdict.
     *
     * @param warmupS the warm-up (seconds of load) the server had before this scenario's first step
     * @param warmupSettled whether that warm-up reached the server's steady state before its limit
     *                      (throughput no longer rising, JIT quiet); false: the sample may have measured a
     *                      JVM still compiling
     * @param steady false when the step's own 1-second windows still trended (see {@code SteadyState})
     * @param otherLoadPct CPU used by processes outside the run during the window, % of the machine's CPUs
     * @param loadSaturated whether the load side (driver, memcached) was saturated during the window
     */
    public record Caveats(double warmupS, boolean warmupSettled, boolean steady, double otherLoadPct,
                          boolean loadSaturated) {
        /** A sample with nothing to say against it. */
        public static Caveats none(double warmupS) {
            return new Caveats(warmupS, true, true, 0, false);
        }

        /** Whether processes outside the run used more than {@value SampleRecord#NOT_QUIET_PCT} % of the CPUs during its window. */
        public boolean notQuiet() {
            return otherLoadPct > NOT_QUIET_PCT;
        }
    }

    public SampleRecord {
        repeat = Math.max(1, repeat);
        iteration = Math.max(1, iteration);
        open = open == null ? StepRecord.OpenModel.CLOSED : open;
        saturation = saturation == null ? Saturation.UNKNOWN : saturation;
        measured = measured == null ? Measured.NONE : measured;
    }

    /**
     * This sample's value of {@code figure}: its own columns, its saturation readings, its probes'
     * figures; NaN for a figure a sample does not hold (a percentile other than p99, a cost).
     */
    public double figure(Figure figure) {
        return switch (figure) {
            case RPS -> figures.rps();
            case P99 -> figures.latP99Ms();
            case CPU -> figures.cpuMsPerReq();
            case ERRORS -> figures.errors();
            case RUNQ_WAIT -> saturation.runQueueWaitUsPerReq();
            case INVOLUNTARY_CS -> saturation.involuntarySwitchesPerReq();
            default -> measured.get(figure);
        };
    }

    private static final Column<SampleRecord> VARIANT = Column.text("variant", s -> s.key.variant());
    private static final Column<SampleRecord> SCENARIO = Column.text("scenario", s -> s.key.scenario());
    private static final Column<SampleRecord> CONCURRENCY = Column.count("concurrency", s -> s.key.concurrency());
    private static final Column<SampleRecord> TARGET_RPS = Column.decimal("target_rps", 1, s -> s.key.targetRps());
    private static final Column<SampleRecord> REPEAT = Column.count("repeat", SampleRecord::repeat);
    private static final Column<SampleRecord> RPS = Column.figure("rps", Figure.RPS, s -> s.figures.rps());
    private static final Column<SampleRecord> LAT_P99 = Column.figure("lat_p99_ms", Figure.P99, s -> s.figures.latP99Ms());
    private static final Column<SampleRecord> CPU = Column.figure("cpu_ms_per_req", Figure.CPU, s -> s.figures.cpuMsPerReq());
    private static final Column<SampleRecord> ERRORS = Column.count("errors", s -> s.figures.errors());
    private static final Column<SampleRecord> LAT_P99_UNCORRECTED = Column.decimal("lat_p99_uncorrected_ms", 3, s -> s.open.latP99UncorrectedMs());
    private static final Column<SampleRecord> SCHEDULE_LAG_P99 = Column.decimal("schedule_lag_p99_ms", 3, s -> s.open.scheduleLagP99Ms());
    private static final Column<SampleRecord> WARMUP_S = Column.decimal("warmup_s", 1, s -> s.caveats.warmupS());
    private static final Column<SampleRecord> STEADY = Column.flag("steady", s -> s.caveats.steady());
    private static final Column<SampleRecord> RAW = Column.text("raw", SampleRecord::raw);
    private static final Column<SampleRecord> WARMUP_SETTLED = Column.flag("warmup_settled", s -> s.caveats.warmupSettled());
    private static final Column<SampleRecord> CONDITIONS = Column.text("conditions", s -> s.key.conditions().label());
    private static final Column<SampleRecord> TLS_HANDSHAKES = Column.count("tls_handshakes", SampleRecord::tlsHandshakes);
    private static final Column<SampleRecord> GZIP_RESPONSES = Column.count("gzip_responses", SampleRecord::gzipResponses);
    private static final Column<SampleRecord> ITERATION = Column.count("iteration", SampleRecord::iteration);
    private static final Column<SampleRecord> OTHER_LOAD_PCT = Column.decimal("other_load_pct", 1, s -> s.caveats.otherLoadPct());
    private static final Column<SampleRecord> LOAD_SATURATED = Column.flag("load_saturated", s -> s.caveats.loadSaturated());
    private static final Column<SampleRecord> LEFT_OUT = Column.flag("left_out", SampleRecord::leftOut);

    /** samples.csv's columns, in order. */
    public static final List<Column<SampleRecord>> COLUMNS = Stream.concat(Stream.of(VARIANT, SCENARIO, CONCURRENCY,
            TARGET_RPS, REPEAT, RPS, LAT_P99, CPU, ERRORS, LAT_P99_UNCORRECTED, SCHEDULE_LAG_P99, WARMUP_S, STEADY, RAW,
            WARMUP_SETTLED, CONDITIONS, TLS_HANDSHAKES, GZIP_RESPONSES, ITERATION, OTHER_LOAD_PCT, LOAD_SATURATED),
            Stream.concat(Stream.concat(Saturation.columnsOf(SampleRecord::saturation).stream(), Stream.of(LEFT_OUT)),
                    Measured.columns(Figure.Level.SAMPLE, SampleRecord::measured).stream())).toList();

    /** Reads a sample back; a column an older runner did not write reads as the benign value (steady, settled, quiet). */
    public static SampleRecord read(CsvRow v) {
        return new SampleRecord(
                new StepKey(v.text(VARIANT), v.text(SCENARIO), v.integer(CONCURRENCY), v.decimal(TARGET_RPS, 0),
                        Conditions.parse(v.text(CONDITIONS))),
                v.integer(REPEAT), v.integer(ITERATION),
                new Figures(v.decimal(RPS), v.decimal(LAT_P99), v.decimal(CPU), v.count(ERRORS)),
                new StepRecord.OpenModel(v.decimal(LAT_P99_UNCORRECTED), v.decimal(SCHEDULE_LAG_P99)),
                new Caveats(v.decimal(WARMUP_S), v.flag(WARMUP_SETTLED, true), v.flag(STEADY, true),
                        v.decimal(OTHER_LOAD_PCT, 0), v.flag(LOAD_SATURATED)),
                v.text(RAW), v.count(TLS_HANDSHAKES), v.count(GZIP_RESPONSES), Saturation.read(v),
                Measured.read(v, Figure.Level.SAMPLE), v.flag(LEFT_OUT));
    }

    /** This sample as if measured under {@code other}: how a comparison of two conditions matches their steps. */
    public SampleRecord withConditions(Conditions other) {
        return new SampleRecord(new StepKey(key.variant(), key.scenario(), key.concurrency(), key.targetRps(), other),
                repeat, iteration, figures, open, caveats, raw, tlsHandshakes, gzipResponses, saturation, measured, leftOut);
    }

    /** This sample left out of its step's figure, or taken back in. */
    public SampleRecord leftOut(boolean out) {
        return new SampleRecord(key, repeat, iteration, figures, open, caveats, raw, tlsHandshakes, gzipResponses, saturation,
                measured, out);
    }
}
