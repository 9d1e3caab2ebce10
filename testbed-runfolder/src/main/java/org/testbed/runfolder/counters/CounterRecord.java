package org.testbed.runfolder.counters;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.ResultRow;

/**
 * A row of {@code counters.csv}: what {@code perf stat} counted in the server process during one
 * sample of one step, per request, so that "B uses 1.4× the CPU" can be read as "1.1× the
 * instructions at 0.8× the IPC". A figure perf could not count is {@code n/a} (NaN here), and
 * {@code unavailable} says which and why.
 *
 * @param ipc instructions per cycle
 * @param ipcPerRefCycle instructions per reference cycle: cycles at the nominal frequency, which a
 *                       turbo or a power-saving clock does not skew
 */
public record CounterRecord(String variant, String scenario, int concurrency, double targetRps, Conditions conditions,
                            int repeat,
                            long requests, double taskClockMsPerReq, double contextSwitchesPerReq,
                            double cpuMigrationsPerReq, double pageFaultsPerReq, double cyclesPerReq,
                            double instructionsPerReq, double ipc, double refCyclesPerReq, double ipcPerRefCycle,
                            double branchMissesPerReq, double llcLoadsPerReq, double llcLoadMissesPerReq,
                            String unavailable) {

    public static final String NA = "n/a";

    public static final List<String> COLUMNS = List.of("variant", "scenario", "concurrency", "target_rps", "conditions", "repeat",
            "requests", "task_clock_ms_per_req", "context_switches_per_req", "cpu_migrations_per_req",
            "page_faults_per_req", "cycles_per_req", "instructions_per_req", "ipc", "ref_cycles_per_req",
            "ipc_per_ref_cycle", "branch_misses_per_req", "llc_loads_per_req", "llc_load_misses_per_req", "unavailable");

    /** The per-request figures of one reading over {@code requests} completed requests. */
    public static CounterRecord of(ResultRow.StepKey step, int repeat, long requests, CounterReading reading) {
        double n = requests > 0 ? requests : Double.NaN;
        double cycles = reading.total(PerfEvent.CYCLES);
        double instructions = reading.total(PerfEvent.INSTRUCTIONS);
        double refCycles = reading.total(PerfEvent.REF_CYCLES);
        return new CounterRecord(step.variant(), step.scenario(), step.concurrency(), step.targetRps(), step.conditions(),
                repeat, requests,
                reading.total(PerfEvent.TASK_CLOCK) / n, reading.total(PerfEvent.CONTEXT_SWITCHES) / n,
                reading.total(PerfEvent.CPU_MIGRATIONS) / n, reading.total(PerfEvent.PAGE_FAULTS) / n, cycles / n,
                instructions / n, ratio(instructions, cycles), refCycles / n, ratio(instructions, refCycles),
                reading.total(PerfEvent.BRANCH_MISSES) / n, reading.total(PerfEvent.LLC_LOADS) / n,
                reading.total(PerfEvent.LLC_LOAD_MISSES) / n, reading.unavailableText());
    }

    private static double ratio(double a, double b) {
        return b > 0 ? a / b : Double.NaN;
    }

    public ResultRow.StepKey key() {
        return new ResultRow.StepKey(variant, scenario, concurrency, targetRps, conditions);
    }

    /** The per-request figures in column order (from {@code task_clock_ms_per_req} to {@code llc_load_misses_per_req}). */
    public double[] figures() {
        return new double[] {taskClockMsPerReq, contextSwitchesPerReq, cpuMigrationsPerReq, pageFaultsPerReq,
            cyclesPerReq, instructionsPerReq, ipc, refCyclesPerReq, ipcPerRefCycle, branchMissesPerReq, llcLoadsPerReq,
            llcLoadMissesPerReq};
    }

    /** The column names of {@link #figures()}. */
    public static List<String> figureColumns() {
        return COLUMNS.subList(COLUMNS.indexOf("requests") + 1, COLUMNS.size() - 1);
    }

    public List<String> fields() {
        List<String> f = new ArrayList<>(List.of(variant, scenario, Integer.toString(concurrency),
                String.format(Locale.ROOT, "%.1f", targetRps), conditions.label(), Integer.toString(repeat),
                Long.toString(requests)));
        for (double v : figures()) {
            f.add(format(v));
        }
        f.add(unavailable);
        return f;
    }

    static String format(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return NA;
        }
        // Six significant digits: per-request figures range from 1e-4 (migrations) to 1e6 (instructions).
        return new BigDecimal(v, new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    public static CounterRecord of(Map<String, String> v) {
        double[] f = new double[figureColumns().size()];
        for (int i = 0; i < f.length; i++) {
            f[i] = parse(v.get(figureColumns().get(i)));
        }
        return new CounterRecord(v.get("variant"), v.get("scenario"), (int) parse(v.get("concurrency")),
                parse(v.get("target_rps")), Conditions.parse(v.get("conditions")), (int) parse(v.get("repeat")),
                (long) parse(v.get("requests")), f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11],
                v.getOrDefault("unavailable", ""));
    }

    private static double parse(String s) {
        return s == null || s.isBlank() || s.equals(NA) ? Double.NaN : Double.parseDouble(s);
    }
}
