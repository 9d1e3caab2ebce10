package org.testbed.runfolder.csv;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runfolder.stats.PrecisionTarget;
import org.testbed.runfolder.stats.Spread;

/**
 * One row of the sidecar {@code steps.csv}: what the runner knows about a step beyond docs/DESIGN.md's
 * columns, keyed like {@code results.csv} (variant, scenario, concurrency, target_rps, conditions).
 * It is made of the parts below, each one concern; its columns ({@link #COLUMNS}) are defined once,
 * here, and the report's data takes its keys from them.
 *
 * @param key the step, as results.csv keys it
 * @param driver the load driver's side of the step
 * @param server the server's side beyond results.csv's figures
 * @param load who else used the CPUs: the load side, memcached, the hypervisor, other programs
 * @param setup how the step was set up
 * @param files the step's files in the run folder
 * @param repeats the spread of its figures over its samples
 * @param steadiness the warm-up before it and whether its windows were flat
 * @param open the open model's own figures ({@link OpenModel#CLOSED} for a closed-model step)
 * @param cost what a million requests cost at the step's throughput ({@link Cost#NONE} for a run without a price)
 * @param precision how precise its figures are and what the run did for it ({@link Precision#NONE} for a sample)
 * @param measured the medians of its samples' probe figures ({@link Measured}), columns that follow their declaration
 */
public record StepRecord(StepKey key, DriverSide driver, ServerSide server, LoadSide load, Setup setup, Files files,
                         Repeats repeats, Steadiness steadiness, OpenModel open, Cost cost, Precision precision,
                         Measured measured) {

    public StepRecord {
        cost = cost == null ? Cost.NONE : cost;
        precision = precision == null ? Precision.NONE : precision;
        measured = measured == null ? Measured.NONE : measured;
    }

    /** A step without probes' figures. */
    public StepRecord(StepKey key, DriverSide driver, ServerSide server, LoadSide load, Setup setup, Files files,
                      Repeats repeats, Steadiness steadiness, OpenModel open, Cost cost, Precision precision) {
        this(key, driver, server, load, setup, files, repeats, steadiness, open, cost, precision, Measured.NONE);
    }

    /**
     * The step's value of {@code figure}: the median of its samples for throughput, p99 and CPU per
     * request (results.csv's figure), its cost per million requests, its saturation readings, its
     * probes' figures; NaN for one steps.csv does not hold.
     */
    public double figure(Figure figure) {
        return spread(figure).map(Spread::median).orElseGet(() -> switch (figure) {
            case COST -> cost.perMillion();
            case RUNQ_WAIT -> server.saturation().runQueueWaitUsPerReq();
            case INVOLUNTARY_CS -> server.saturation().involuntarySwitchesPerReq();
            default -> measured.get(figure);
        });
    }

    /** The spread of {@code figure} over the step's samples, for the figures steps.csv keeps one of (rps, p99, cpu). */
    public Optional<Spread> spread(Figure figure) {
        return switch (figure) {
            case RPS -> Optional.of(repeats.rps());
            case P99 -> Optional.of(repeats.p99());
            case CPU -> Optional.of(repeats.cpu());
            default -> Optional.empty();
        };
    }

    /** A step (or one sample of it) before its precision is known. */
    public StepRecord(StepKey key, DriverSide driver, ServerSide server, LoadSide load, Setup setup, Files files,
                      Repeats repeats, Steadiness steadiness, OpenModel open, Cost cost) {
        this(key, driver, server, load, setup, files, repeats, steadiness, open, cost, Precision.NONE);
    }

    /**
     * The load driver's side.
     *
     * @param name the driver, as results.csv's {@code driver} column names it
     * @param cpuMs its own CPU time over the step
     * @param cpuPct that time as a percentage of its allowed CPUs
     * @param peakConnections most connections it held at once
     * @param tlsHandshakes TLS handshakes it made in the median sample (0 over plain HTTP)
     * @param gzipResponses responses that came gzip-compressed in the median sample (0 without gzip)
     */
    public record DriverSide(String name, double cpuMs, double cpuPct, int peakConnections, long tlsHandshakes,
                             long gzipResponses) {
    }

    /**
     * The server's side, beyond the CPU, memory and GC figures of results.csv.
     *
     * @param cpusBusyPct how busy the server's CPUs were over the step
     * @param threads the server process's threads at the end of the step ({@code /proc/PID/stat}); 0 when not known
     * @param saturation whether it waited for CPUs, its listen queue or its cgroup's quota ({@link Saturation#UNKNOWN}
     *                   when not read)
     * @param cpuClock how its CPU time was read: {@link #TICKS} or {@link #SCHEDSTAT}
     * @param listenOverflowSamples how many of the step's samples saw a listen queue overflow: their latency
     *                              tail holds connect retries, not service time ({@link Saturation#CONNECT_RETRIES})
     */
    public record ServerSide(double cpusBusyPct, long threads, Saturation saturation, String cpuClock,
                             int listenOverflowSamples) {
        /** CPU time read from {@code /proc/PID/stat}, in clock ticks (10 ms): enough for a window of 2 s of CPU or more. */
        public static final String TICKS = "ticks";
        /** CPU time read from the threads' {@code schedstat}, in nanoseconds: for a window with little CPU in it. */
        public static final String SCHEDSTAT = "schedstat";

        public ServerSide {
            saturation = saturation == null ? Saturation.UNKNOWN : saturation;
            cpuClock = cpuClock == null ? "" : cpuClock;
        }

        /** One sample's server side, its CPU time read as {@code cpuClock}: it counts itself when its listen queue overflowed. */
        public ServerSide(double cpusBusyPct, long threads, Saturation saturation, String cpuClock) {
            this(cpusBusyPct, threads, saturation, cpuClock, saturation != null && saturation.listenQueueOverflowed() ? 1 : 0);
        }

        /** One sample's server side, its CPU time read in clock ticks. */
        public ServerSide(double cpusBusyPct, long threads, Saturation saturation) {
            this(cpusBusyPct, threads, saturation, TICKS);
        }

        /** Whether the listen queue overflowed in any sample (a steps.csv without the count: the median sample's). */
        public boolean listenQueueOverflowed() {
            return listenOverflowSamples > 0 || saturation.listenQueueOverflowed();
        }

        /** The server's side without its saturation readings. */
        public ServerSide(double cpusBusyPct, long threads) {
            this(cpusBusyPct, threads, Saturation.UNKNOWN);
        }
    }

    /**
     * Who else used the CPUs over the step.
     *
     * @param memcachedCpuPct the runner's memcached's CPU time as a percentage of the load CPUs (0 when it
     *                        runs elsewhere or is not the runner's)
     * @param loadCpusBusyPct how busy the load CPUs were, whatever ran there, from /proc/stat
     * @param stealPct time the hypervisor stole from the CPUs (noisy neighbours)
     * @param otherLoadPct CPU busy time on the server's or the load CPUs that none of the run's processes
     *                     accounts for, in percent of those CPUs (the larger of the two): other programs
     *                     were running, the figures are noisy
     * @param loadSidePct the load side's share of the load CPUs: the driver, memcached when it shares them,
     *                    and the interrupt and softirq time there (loopback networking)
     * @param saturated {@code loadSidePct} exceeded the saturation threshold in some sample: the load
     *                  generator, not the server, may have been the limit
     */
    public record LoadSide(double memcachedCpuPct, double loadCpusBusyPct, double stealPct, double otherLoadPct,
                           double loadSidePct, boolean saturated) {
    }

    /**
     * How the step was set up.
     *
     * @param serverCpus the CPUs the server was pinned to (taskset list, empty = not pinned)
     * @param loadCpus the CPUs the load driver was pinned to
     * @param delayMs the simulated I/O of the delay scenario (0 for others)
     * @param threads the worker threads of sync variants (TESTBED_THREADS)
     * @param sla the SLA this step probed for ({@code --sla}: a step of a capacity search, e.g.
     *            {@code p99<=5ms}); empty for a step of the planned levels
     */
    public record Setup(String serverCpus, String loadCpus, int delayMs, int threads, String sla) {
        public Setup {
            sla = sla == null ? "" : sla;
        }
    }

    /**
     * The step's files, relative to the run folder.
     *
     * @param raw the median sample's raw output
     * @param flamegraph its flame graph, when the run drew them
     * @param heatmap the heat map of the same profile over the step's time, when the run drew them
     */
    public record Files(String raw, Optional<String> flamegraph, Optional<String> heatmap) {
    }

    /**
     * The spread of the step's figures over its samples ({@code --forks} x {@code --iterations}).
     *
     * @param count how many samples the figures are the median of
     * @param rps throughput
     * @param p99 p99 latency (ms)
     * @param cpu server CPU ms per request
     */
    public record Repeats(int count, Spread rps, Spread p99, Spread cpu) {
    }

    /**
     * Whether the server was steady.
     *
     * @param warmupS the warm-up the server had before this scenario (seconds of load, median over the
     *                samples): until throughput stopped rising, bounded by {@code --warmup}
     * @param notSteadySamples how many of the samples still trended within their own window
     * @param warmupUnsettledSamples how many samples followed a warm-up that reached its limit before the
     *                               server was steady (throughput still rising or the JIT still compiling)
     * @param slowMachineSamples how many of its windows ran while the machine was slow ({@code --slow-machine};
     *                           samples.csv's {@code left_out}): left out of the step's figure
     * @param slowMachineRetakes how many windows were measured again because one ran on a slow machine
     * @param slowMachineFigure every window of the step ran slow, so its figure is theirs, none left out
     */
    public record Steadiness(double warmupS, int notSteadySamples, int warmupUnsettledSamples, int slowMachineSamples,
                             int slowMachineRetakes, boolean slowMachineFigure) {
        /** A step on a machine that never ran slow. */
        public Steadiness(double warmupS, int notSteadySamples, int warmupUnsettledSamples) {
            this(warmupS, notSteadySamples, warmupUnsettledSamples, 0, 0, false);
        }

        /** Whether every sample was steady within its own window. */
        public boolean steady() {
            return notSteadySamples == 0;
        }
    }

    /**
     * The open model's own figures (medians over the samples).
     *
     * @param latP99UncorrectedMs p99 from the actual send (as wrk2 -U)
     * @param scheduleLagP99Ms p99 of how late the driver sent after the intended start
     */
    public record OpenModel(double latP99UncorrectedMs, double scheduleLagP99Ms) {
        /** A closed-model step, which has neither. */
        public static final OpenModel CLOSED = new OpenModel(Double.NaN, Double.NaN);
    }

    /**
     * What a million requests cost at the step's throughput, on a run with a price ({@link Pricing}):
     * {@code price_per_hour × server_share / (rps × 3600) × 1e6}. Cost is inverse to throughput, so its
     * interval is the throughput's turned over: the low end of the cost from the high end of the rps.
     *
     * @param pricePerHour the server machine's price per hour, as given; NaN without a price
     * @param serverShare the server's share of that machine, 0..1
     * @param perMillion the cost of a million requests at the step's throughput (results.csv's rps)
     * @param ciLow the cost at the upper end of the throughput's interval
     * @param ciHigh the cost at its lower end
     */
    public record Cost(double pricePerHour, double serverShare, double perMillion, double ciLow, double ciHigh) {
        /** A step of a run without a price: every figure unknown, every column empty. */
        public static final Cost NONE = new Cost(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        /** The cost at {@code rps}, its interval from the throughput's ({@code spread}'s ends). */
        public static Cost of(Pricing pricing, double rps, Spread spread) {
            return of(pricing.pricePerHour(), pricing.share().fraction(), rps, spread);
        }

        static Cost of(double pricePerHour, double serverShare, double rps, Spread spread) {
            return new Cost(pricePerHour, serverShare, Pricing.costPerMillion(pricePerHour, serverShare, rps),
                    Pricing.costPerMillion(pricePerHour, serverShare, spread.ciHigh()),
                    Pricing.costPerMillion(pricePerHour, serverShare, spread.ciLow()));
        }

        /** Whether the run had a price. */
        public boolean priced() {
            return pricePerHour > 0;
        }

        /** The same price over another throughput spread (a step's samples folded): its median and interval. */
        Cost over(Spread rps) {
            return priced() ? of(pricePerHour, serverShare, rps.median(), rps) : NONE;
        }
    }

    /**
     * How precise the step's figures are, and what the run did to make them so ({@code --precision}):
     * the forks its samples came from, how many of those the run added after the planned ones, how
     * its figures scatter at each level of the measurement ({@link org.testbed.runfolder.stats.VarianceComponents}),
     * and whether its intervals met the target. The half-widths themselves are the {@link Repeats}' intervals'.
     *
     * @param forks the fresh JVMs its samples came from
     * @param addedForks how many of them the run added for the target, after the planned ones
     * @param rps throughput's scatter between forks and between one fork's iterations
     * @param p99 p99's
     * @param cpu CPU per request's
     * @param targetPct the half-width the target asked of its figures, in per cent; NaN without a target
     * @param status {@link #MET}, {@link #MISSED}, or empty without a target
     */
    public record Precision(int forks, int addedForks, Scatter rps, Scatter p99, Scatter cpu, double targetPct, String status) {
        public static final String MET = "met";
        public static final String MISSED = "missed";
        /** A single sample, or a step from a runner before precision was recorded. */
        public static final Precision NONE = new Precision(0, 0, Scatter.NONE, Scatter.NONE, Scatter.NONE, Double.NaN, "");

        public Precision {
            status = status == null ? "" : status;
        }

        /** Whether the step was held to a target and missed it. */
        public boolean missed() {
            return MISSED.equals(status);
        }
    }

    /**
     * A figure's scatter at the two levels of the measurement, each as a standard deviation of the
     * logs in per cent (about the coefficient of variation).
     *
     * @param forkSdPct between JVMs, beyond what their iterations explain; NaN with one fork
     * @param iterationSdPct between the iterations of one JVM; NaN with one iteration per fork
     */
    public record Scatter(double forkSdPct, double iterationSdPct) {
        public static final Scatter NONE = new Scatter(Double.NaN, Double.NaN);
    }

    private static final Column<StepRecord> VARIANT = Column.text("variant", s -> s.key.variant());
    private static final Column<StepRecord> SCENARIO = Column.text("scenario", s -> s.key.scenario());
    private static final Column<StepRecord> CONCURRENCY = Column.count("concurrency", s -> s.key.concurrency());
    private static final Column<StepRecord> TARGET_RPS = Column.decimal("target_rps", 1, s -> s.key.targetRps());
    private static final Column<StepRecord> DRIVER = Column.text("driver", s -> s.driver.name());
    private static final Column<StepRecord> DRIVER_CPU_MS = Column.decimal("driver_cpu_ms", 0, s -> s.driver.cpuMs());
    private static final Column<StepRecord> DRIVER_CPU_PCT = Column.decimal("driver_cpu_pct", 1, s -> s.driver.cpuPct());
    private static final Column<StepRecord> MEMCACHED_CPU_PCT = Column.decimal("memcached_cpu_pct", 1, s -> s.load.memcachedCpuPct());
    private static final Column<StepRecord> LOAD_CPUS_BUSY_PCT = Column.decimal("load_cpus_busy_pct", 1, s -> s.load.loadCpusBusyPct());
    private static final Column<StepRecord> SERVER_CPUS_BUSY_PCT = Column.decimal("server_cpus_busy_pct", 1, s -> s.server.cpusBusyPct());
    private static final Column<StepRecord> STEAL_PCT = Column.decimal("steal_pct", 1, s -> s.load.stealPct());
    private static final Column<StepRecord> OTHER_LOAD_PCT = Column.decimal("other_load_pct", 1, s -> s.load.otherLoadPct());
    private static final Column<StepRecord> LOAD_SIDE_PCT = Column.decimal("load_side_pct", 1, s -> s.load.loadSidePct());
    private static final Column<StepRecord> LOAD_SATURATED = Column.flag("load_saturated", s -> s.load.saturated());
    private static final Column<StepRecord> PEAK_CONNECTIONS = Column.count("peak_connections", s -> s.driver.peakConnections());
    private static final Column<StepRecord> SERVER_CPUS = Column.text("server_cpus", s -> s.setup.serverCpus());
    private static final Column<StepRecord> LOAD_CPUS = Column.text("load_cpus", s -> s.setup.loadCpus());
    private static final Column<StepRecord> DELAY_MS = Column.count("delay_ms", s -> s.setup.delayMs());
    private static final Column<StepRecord> THREADS = Column.count("threads", s -> s.setup.threads());
    private static final Column<StepRecord> RAW = Column.text("raw", s -> s.files.raw());
    private static final Column<StepRecord> FLAMEGRAPH = Column.text("flamegraph", s -> s.files.flamegraph().orElse(""));
    private static final Column<StepRecord> HEATMAP = Column.text("heatmap", s -> s.files.heatmap().orElse(""));
    private static final Column<StepRecord> REPEATS = Column.count("repeats", s -> s.repeats.count());
    private static final SpreadColumns RPS = new SpreadColumns("rps_", "", Figure.RPS.digits().digits(), Repeats::rps);
    private static final SpreadColumns P99 = new SpreadColumns("lat_p99_", "_ms", Figure.P99.digits().digits(), Repeats::p99);
    private static final SpreadColumns CPU = new SpreadColumns("cpu_ms_per_req_", "", Figure.CPU.digits().digits(), Repeats::cpu);
    private static final Column<StepRecord> CI_CONFIDENCE = Column.decimal("ci_confidence", 4, s -> s.repeats.rps().confidence());
    private static final Column<StepRecord> WARMUP_S = Column.decimal("warmup_s", 1, s -> s.steadiness.warmupS());
    private static final Column<StepRecord> STEADY = Column.flag("steady", s -> s.steadiness.steady());
    private static final Column<StepRecord> NOT_STEADY_SAMPLES = Column.count("not_steady_samples", s -> s.steadiness.notSteadySamples());
    private static final Column<StepRecord> LAT_P99_UNCORRECTED = Column.decimal("lat_p99_uncorrected_ms", 3, s -> s.open.latP99UncorrectedMs());
    private static final Column<StepRecord> SCHEDULE_LAG_P99 = Column.decimal("schedule_lag_p99_ms", 3, s -> s.open.scheduleLagP99Ms());
    private static final Column<StepRecord> WARMUP_UNSETTLED = Column.count("warmup_unsettled_samples", s -> s.steadiness.warmupUnsettledSamples());
    private static final Column<StepRecord> CONDITIONS = Column.text("conditions", s -> s.key.conditions().label());
    private static final Column<StepRecord> TLS_HANDSHAKES = Column.count("tls_handshakes", s -> s.driver.tlsHandshakes());
    private static final Column<StepRecord> GZIP_RESPONSES = Column.count("gzip_responses", s -> s.driver.gzipResponses());
    private static final Column<StepRecord> SLA = Column.text("sla", s -> s.setup.sla());
    private static final Column<StepRecord> SERVER_THREADS = Column.count("server_threads", s -> s.server.threads());
    private static final Column<StepRecord> PRICE_PER_HOUR = Column.number("price_per_hour", s -> Pricing.text(s.cost.pricePerHour()));
    private static final Column<StepRecord> SERVER_SHARE = Column.number("server_share", s -> Pricing.text(s.cost.serverShare()));
    private static final Column<StepRecord> COST_PER_MILLION = Column.number("cost_per_million", s -> Pricing.cost(s.cost.perMillion()));
    private static final Column<StepRecord> COST_CI_LOW = Column.number("cost_per_million_ci_low", s -> Pricing.cost(s.cost.ciLow()));
    private static final Column<StepRecord> COST_CI_HIGH = Column.number("cost_per_million_ci_high", s -> Pricing.cost(s.cost.ciHigh()));
    private static final Column<StepRecord> FORKS = Column.count("forks", s -> s.precision.forks());
    private static final Column<StepRecord> ADDED_FORKS = Column.count("added_forks", s -> s.precision.addedForks());
    private static final Column<StepRecord> RPS_HALF_WIDTH = Column.decimal("rps_half_width_pct", 2, s -> s.repeats.rps().halfWidthPct());
    private static final Column<StepRecord> P99_HALF_WIDTH = Column.decimal("lat_p99_half_width_pct", 2, s -> s.repeats.p99().halfWidthPct());
    private static final Column<StepRecord> CPU_HALF_WIDTH = Column.decimal("cpu_half_width_pct", 2, s -> s.repeats.cpu().halfWidthPct());
    private static final ScatterColumns RPS_SCATTER = new ScatterColumns("rps_", Precision::rps);
    private static final ScatterColumns P99_SCATTER = new ScatterColumns("lat_p99_", Precision::p99);
    private static final ScatterColumns CPU_SCATTER = new ScatterColumns("cpu_", Precision::cpu);
    private static final Column<StepRecord> PRECISION_TARGET = Column.number("precision_target_pct",
            s -> Double.isNaN(s.precision.targetPct()) ? "" : PrecisionTarget.percent(s.precision.targetPct()));
    private static final Column<StepRecord> PRECISION = Column.text("precision", s -> s.precision.status());
    private static final Column<StepRecord> CPU_CLOCK = Column.text("cpu_clock", s -> s.server.cpuClock());
    private static final Column<StepRecord> LISTEN_OVERFLOW_SAMPLES = Column.count("listen_overflow_samples", s -> s.server.listenOverflowSamples());
    private static final Column<StepRecord> SLOW_MACHINE_SAMPLES = Column.count("slow_machine_samples", s -> s.steadiness.slowMachineSamples());
    private static final Column<StepRecord> SLOW_MACHINE_RETAKES = Column.count("slow_machine_retakes", s -> s.steadiness.slowMachineRetakes());
    private static final Column<StepRecord> SLOW_MACHINE_FIGURE = Column.flag("slow_machine_figure", s -> s.steadiness.slowMachineFigure());

    /** steps.csv's columns, in order. */
    public static final List<Column<StepRecord>> COLUMNS = Stream.of(
            List.of(VARIANT, SCENARIO, CONCURRENCY, TARGET_RPS, DRIVER, DRIVER_CPU_MS, DRIVER_CPU_PCT, MEMCACHED_CPU_PCT,
                    LOAD_CPUS_BUSY_PCT, SERVER_CPUS_BUSY_PCT, STEAL_PCT, OTHER_LOAD_PCT, LOAD_SIDE_PCT, LOAD_SATURATED,
                    PEAK_CONNECTIONS, SERVER_CPUS, LOAD_CPUS, DELAY_MS, THREADS, RAW, FLAMEGRAPH, HEATMAP, REPEATS),
            RPS.columns(), P99.columns(), CPU.columns(),
            List.of(CI_CONFIDENCE, WARMUP_S, STEADY, NOT_STEADY_SAMPLES, LAT_P99_UNCORRECTED, SCHEDULE_LAG_P99,
                    WARMUP_UNSETTLED, CONDITIONS, TLS_HANDSHAKES, GZIP_RESPONSES, SLA, SERVER_THREADS),
            Saturation.columnsOf((StepRecord s) -> s.server.saturation()),
            List.of(PRICE_PER_HOUR, SERVER_SHARE, COST_PER_MILLION, COST_CI_LOW, COST_CI_HIGH),
            List.of(FORKS, ADDED_FORKS, RPS_HALF_WIDTH, P99_HALF_WIDTH, CPU_HALF_WIDTH),
            RPS_SCATTER.columns(), P99_SCATTER.columns(), CPU_SCATTER.columns(),
            List.of(PRECISION_TARGET, PRECISION, CPU_CLOCK),
            List.of(LISTEN_OVERFLOW_SAMPLES, SLOW_MACHINE_SAMPLES, SLOW_MACHINE_RETAKES, SLOW_MACHINE_FIGURE),
            Measured.columns(Figure.Level.STEP, StepRecord::measured))
            .flatMap(List::stream).toList();

    /** Reads a record back; a column an older runner did not write reads as unknown or 0. */
    public static StepRecord read(CsvRow v) {
        int repeats = Math.max(1, v.integer(REPEATS));
        double confidence = v.decimal(CI_CONFIDENCE);
        String flamegraph = v.text(FLAMEGRAPH);
        String heatmap = v.text(HEATMAP);
        return new StepRecord(
                new StepKey(v.text(VARIANT), v.text(SCENARIO), v.integer(CONCURRENCY), v.decimal(TARGET_RPS, 0),
                        Conditions.parse(v.text(CONDITIONS))),
                new DriverSide(v.text(DRIVER), v.decimal(DRIVER_CPU_MS), v.decimal(DRIVER_CPU_PCT), v.integer(PEAK_CONNECTIONS),
                        v.count(TLS_HANDSHAKES), v.count(GZIP_RESPONSES)),
                new ServerSide(v.decimal(SERVER_CPUS_BUSY_PCT), v.count(SERVER_THREADS), Saturation.read(v), v.text(CPU_CLOCK),
                        v.integer(LISTEN_OVERFLOW_SAMPLES)),
                new LoadSide(v.decimal(MEMCACHED_CPU_PCT), v.decimal(LOAD_CPUS_BUSY_PCT), v.decimal(STEAL_PCT),
                        v.decimal(OTHER_LOAD_PCT), v.decimal(LOAD_SIDE_PCT), v.flag(LOAD_SATURATED)),
                new Setup(v.text(SERVER_CPUS), v.text(LOAD_CPUS), v.integer(DELAY_MS), v.integer(THREADS), v.text(SLA)),
                new Files(v.text(RAW), flamegraph.isEmpty() ? Optional.empty() : Optional.of(flamegraph),
                        heatmap.isEmpty() ? Optional.empty() : Optional.of(heatmap)),
                new Repeats(repeats, RPS.read(v, repeats, confidence), P99.read(v, repeats, confidence),
                        CPU.read(v, repeats, confidence)),
                new Steadiness(v.decimal(WARMUP_S), v.integer(NOT_STEADY_SAMPLES), v.integer(WARMUP_UNSETTLED),
                        v.integer(SLOW_MACHINE_SAMPLES), v.integer(SLOW_MACHINE_RETAKES), v.flag(SLOW_MACHINE_FIGURE)),
                new OpenModel(v.decimal(LAT_P99_UNCORRECTED), v.decimal(SCHEDULE_LAG_P99)),
                new Cost(v.decimal(PRICE_PER_HOUR), v.decimal(SERVER_SHARE), v.decimal(COST_PER_MILLION), v.decimal(COST_CI_LOW),
                        v.decimal(COST_CI_HIGH)),
                new Precision(v.integer(FORKS), v.integer(ADDED_FORKS), RPS_SCATTER.read(v), P99_SCATTER.read(v),
                        CPU_SCATTER.read(v), v.decimal(PRECISION_TARGET), v.text(PRECISION)),
                Measured.read(v, Figure.Level.STEP));
    }

    /** This record with its precision known. */
    public StepRecord with(Precision p) {
        return new StepRecord(key, driver, server, load, setup, files, repeats, steadiness, open, cost, p, measured);
    }

    /** This record with the spread and steadiness of all the step's samples (the rest is its median sample's). */
    public StepRecord over(Repeats allSamples, Steadiness allSteadiness, OpenModel openMedians, boolean anySaturated) {
        return over(allSamples, allSteadiness, openMedians, anySaturated, measured);
    }

    /**
     * This record with the spread and steadiness of all the step's samples and the medians of their
     * probes' figures (the rest is its median sample's).
     */
    public StepRecord over(Repeats allSamples, Steadiness allSteadiness, OpenModel openMedians, boolean anySaturated,
                           Measured measuredMedians) {
        LoadSide l = new LoadSide(load.memcachedCpuPct(), load.loadCpusBusyPct(), load.stealPct(), load.otherLoadPct(),
                load.loadSidePct(), anySaturated);
        return new StepRecord(key, driver, server, l, setup, files, allSamples, allSteadiness, openMedians,
                cost.over(allSamples.rps()), precision, measuredMedians);
    }

    /** This record with {@code samples} of its samples counted as having overflowed a listen queue. */
    public StepRecord withListenOverflowSamples(int samples) {
        return new StepRecord(key, driver, new ServerSide(server.cpusBusyPct(), server.threads(), server.saturation(),
                server.cpuClock(), samples), load, setup, files, repeats, steadiness, open, cost, precision, measured);
    }

    /**
     * This step priced at {@code pricing} (a run folder priced after the run): the cost at {@code rps},
     * results.csv's throughput (steps.csv keeps only its spread), its interval from that spread.
     */
    public StepRecord priced(Pricing pricing, double rps) {
        return new StepRecord(key, driver, server, load, setup, files, repeats, steadiness, open,
                Cost.of(pricing, rps, repeats.rps()), precision, measured);
    }

    /**
     * The four columns of a figure's spread ({@code rps_min}, {@code rps_max}, {@code rps_ci_low},
     * {@code rps_ci_high}); its median is results.csv's figure and its confidence {@code ci_confidence}.
     */
    private record SpreadColumns(Column<StepRecord> min, Column<StepRecord> max, Column<StepRecord> ciLow,
                                 Column<StepRecord> ciHigh) {
        SpreadColumns(String prefix, String suffix, int decimals, Function<Repeats, Spread> spread) {
            this(Column.decimal(prefix + "min" + suffix, decimals, s -> spread.apply(s.repeats).min()),
                    Column.decimal(prefix + "max" + suffix, decimals, s -> spread.apply(s.repeats).max()),
                    Column.decimal(prefix + "ci_low" + suffix, decimals, s -> spread.apply(s.repeats).ciLow()),
                    Column.decimal(prefix + "ci_high" + suffix, decimals, s -> spread.apply(s.repeats).ciHigh()));
        }

        List<Column<StepRecord>> columns() {
            return List.of(min, max, ciLow, ciHigh);
        }

        /** The spread as written; its median is not in steps.csv (it is results.csv's figure). */
        Spread read(CsvRow v, int n, double confidence) {
            return new Spread(n, Double.NaN, v.decimal(min), v.decimal(max), v.decimal(ciLow), v.decimal(ciHigh), confidence);
        }
    }

    /** The two columns of a figure's scatter ({@code rps_fork_sd_pct}, {@code rps_iteration_sd_pct}). */
    private record ScatterColumns(Column<StepRecord> fork, Column<StepRecord> iteration) {
        ScatterColumns(String prefix, Function<Precision, Scatter> scatter) {
            this(Column.decimal(prefix + "fork_sd_pct", 2, s -> scatter.apply(s.precision).forkSdPct()),
                    Column.decimal(prefix + "iteration_sd_pct", 2, s -> scatter.apply(s.precision).iterationSdPct()));
        }

        List<Column<StepRecord>> columns() {
            return List.of(fork, iteration);
        }

        Scatter read(CsvRow v) {
            return new Scatter(v.decimal(fork), v.decimal(iteration));
        }
    }
}
