package org.testbed.runfolder.counters;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.csv.Column;
import org.testbed.runfolder.csv.CsvRow;

/**
 * A row of {@code counters.csv}: what {@code perf stat} counted in the server process during one
 * sample of one step, per request, so that "B uses 1.4× the CPU" can be read as "1.1× the
 * instructions at 0.8× the IPC". A figure perf could not count is {@code n/a} (NaN here), and
 * {@code unavailable} says which and why.
 *
 * @param repeat which sample of the step (fork, or fork and iteration), from 1; in a median, how many samples
 * @param requests the requests completed while perf counted
 * @param unavailable which figures perf could not count, and why (empty when it counted all)
 */
public record CounterRecord(StepKey key, int repeat, long requests, PerRequest perRequest, String unavailable) {

    public static final String NA = "n/a";

    /**
     * What perf counted, per request, in {@code counters.csv}'s column order.
     *
     * @param ipc instructions per cycle
     * @param ipcPerRefCycle instructions per reference cycle: cycles at the nominal frequency, which a
     *                       turbo or a power-saving clock does not skew
     */
    public record PerRequest(double taskClockMs, double contextSwitches, double cpuMigrations, double pageFaults,
                             double cycles, double instructions, double ipc, double refCycles, double ipcPerRefCycle,
                             double branchMisses, double llcLoads, double llcLoadMisses) {
        /** The column of each figure, in order. */
        static final List<String> COLUMNS = List.of("task_clock_ms_per_req", "context_switches_per_req",
                "cpu_migrations_per_req", "page_faults_per_req", "cycles_per_req", "instructions_per_req", "ipc",
                "ref_cycles_per_req", "ipc_per_ref_cycle", "branch_misses_per_req", "llc_loads_per_req",
                "llc_load_misses_per_req");

        /** The figures in column order. */
        public double[] values() {
            return new double[] {taskClockMs, contextSwitches, cpuMigrations, pageFaults, cycles, instructions, ipc,
                refCycles, ipcPerRefCycle, branchMisses, llcLoads, llcLoadMisses};
        }

        /** The figures from {@link #values()}'s order. */
        public static PerRequest of(double[] v) {
            return new PerRequest(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]);
        }
    }

    private static final Column<CounterRecord> VARIANT = Column.text("variant", r -> r.key.variant());
    private static final Column<CounterRecord> SCENARIO = Column.text("scenario", r -> r.key.scenario());
    private static final Column<CounterRecord> CONCURRENCY = Column.count("concurrency", r -> r.key.concurrency());
    private static final Column<CounterRecord> TARGET_RPS = Column.decimal("target_rps", 1, r -> r.key.targetRps());
    private static final Column<CounterRecord> CONDITIONS = Column.text("conditions", r -> r.key.conditions().label());
    private static final Column<CounterRecord> REPEAT = Column.count("repeat", CounterRecord::repeat);
    private static final Column<CounterRecord> REQUESTS = Column.count("requests", CounterRecord::requests);
    private static final List<Column<CounterRecord>> FIGURES = IntStream.range(0, PerRequest.COLUMNS.size())
            .mapToObj(i -> Column.<CounterRecord>number(PerRequest.COLUMNS.get(i), r -> format(r.perRequest.values()[i])))
            .toList();
    private static final Column<CounterRecord> UNAVAILABLE = Column.text("unavailable", CounterRecord::unavailable);

    /** counters.csv's columns, in order. */
    public static final List<Column<CounterRecord>> COLUMNS = Stream.of(
            List.of(VARIANT, SCENARIO, CONCURRENCY, TARGET_RPS, CONDITIONS, REPEAT, REQUESTS), FIGURES, List.of(UNAVAILABLE))
            .flatMap(List::stream).toList();

    /** The per-request figures of one reading over {@code requests} completed requests. */
    public static CounterRecord of(StepKey step, int repeat, long requests, CounterReading reading) {
        double n = requests > 0 ? requests : Double.NaN;
        double cycles = reading.total(PerfEvent.CYCLES);
        double instructions = reading.total(PerfEvent.INSTRUCTIONS);
        double refCycles = reading.total(PerfEvent.REF_CYCLES);
        return new CounterRecord(step, repeat, requests, new PerRequest(
                reading.total(PerfEvent.TASK_CLOCK) / n, reading.total(PerfEvent.CONTEXT_SWITCHES) / n,
                reading.total(PerfEvent.CPU_MIGRATIONS) / n, reading.total(PerfEvent.PAGE_FAULTS) / n, cycles / n,
                instructions / n, ratio(instructions, cycles), refCycles / n, ratio(instructions, refCycles),
                reading.total(PerfEvent.BRANCH_MISSES) / n, reading.total(PerfEvent.LLC_LOADS) / n,
                reading.total(PerfEvent.LLC_LOAD_MISSES) / n), reading.unavailableText());
    }

    /** Reads a record back; a figure written {@value #NA} is NaN. */
    public static CounterRecord read(CsvRow v) {
        double[] f = FIGURES.stream().mapToDouble(v::decimal).toArray();
        return new CounterRecord(new StepKey(v.text(VARIANT), v.text(SCENARIO), v.integer(CONCURRENCY),
                v.decimal(TARGET_RPS, 0), Conditions.parse(v.text(CONDITIONS))), v.integer(REPEAT), v.count(REQUESTS),
                PerRequest.of(f), v.text(UNAVAILABLE));
    }

    private static double ratio(double a, double b) {
        return b > 0 ? a / b : Double.NaN;
    }

    public String variant() {
        return key.variant();
    }

    /** The per-request figures in column order (from {@code task_clock_ms_per_req} to {@code llc_load_misses_per_req}). */
    public double[] figures() {
        return perRequest.values();
    }

    /** The column names of {@link #figures()}. */
    public static List<String> figureColumns() {
        return PerRequest.COLUMNS;
    }

    static String format(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return NA;
        }
        // Six significant digits: per-request figures range from 1e-4 (migrations) to 1e6 (instructions).
        return new BigDecimal(v, new MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
