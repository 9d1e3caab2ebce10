package org.testbed.runner.step;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.testbed.runner.capacity.CapacityCsv;
import org.testbed.runner.capacity.CapacityRecord;
import org.testbed.schema.ResultRow;
import org.testbed.runner.csv.StepRecord;

/**
 * Console progress: one line per step and an estimate of the time left, from the planned step and
 * warm-up time still to come plus the measured average overhead (start, preload, stop) per variant.
 */
public final class Progress {
    private final PrintStream out;
    private final RunRecorder recorder;
    private final int totalSteps;
    private final long startNanos = System.nanoTime();
    private long remainingPlannedMillis;
    private int remainingVariants;
    private int variantsDone;
    private long overheadMillis;
    private int stepsDone;

    Progress(PrintStream out, RunRecorder recorder, int totalSteps, long plannedMillis, int variants) {
        this.out = out;
        this.recorder = recorder;
        this.totalSteps = totalSteps;
        this.remainingPlannedMillis = plannedMillis;
        this.remainingVariants = variants;
    }

    public void info(String message) {
        out.println(message);
        out.flush();
    }

    /** Time spent that was planned (a step or a warm-up). */
    public void planned(Duration d) {
        remainingPlannedMillis = Math.max(0, remainingPlannedMillis - d.toMillis());
    }

    public void variantDone(long overhead) {
        variantsDone++;
        remainingVariants = Math.max(0, remainingVariants - 1);
        overheadMillis += overhead;
    }

    /**
     * One line per measured sample: its figures, the flags that make them suspect, and once a step
     * has two samples or more, the range of its throughput and p99 so far.
     */
    void step(Sample sample) {
        stepsDone++;
        ResultRow row = sample.row();
        StepRecord step = sample.step();
        List<Sample> soFar = recorder.samplesOf(row.key());
        String spread = "";
        if (soFar.size() >= 2) {
            StepAggregate a = StepAggregate.of(soFar);
            spread = String.format(Locale.ROOT, "  [n=%d: %.0f..%.0f req/s, p99 %.3f..%.3f ms]", soFar.size(),
                    a.step().rps().min(), a.step().rps().max(), a.step().p99().min(), a.step().p99().max());
        }
        out.printf(Locale.ROOT, "[%3d/%d] %-22s %-9s %-8s %9.0f req/s  p99 %8.3f ms  cpu %7.4f ms/req  load CPU %3.0f%%%s%s%s%s%s  ETA %s%n",
                stepsDone, totalSteps, row.variant(), row.scenario(), row.key().describe(), row.rps(), row.latP99Ms(),
                row.cpuMsPerReq(), step.loadSidePct(), step.loadSaturated() ? " SATURATED" : "",
                step.otherLoadPct() > LoadAccounting.NOISE_PCT
                        ? String.format(Locale.ROOT, "  NOT QUIET (%.0f%% other load)", step.otherLoadPct()) : "",
                (sample.sample().steady() ? "" : "  NOT STEADY") + (sample.sample().warmupSettled() ? "" : "  WARM-UP CUT SHORT"),
                row.errors() > 0 ? "  errors " + row.errors() : "",
                spread, eta());
        out.flush();
    }

    /**
     * The steps of a repeated run: the median of each figure with its confidence interval (the
     * coverage the number of repeats allows) and the flags.
     */
    void summary(List<StepAggregate> steps) {
        out.println("steps (median of the repeats [confidence interval of the median]):");
        for (StepAggregate a : steps) {
            ResultRow row = a.row();
            StepRecord step = a.step();
            out.printf(Locale.ROOT, "  %-22s %-9s %-8s %9.0f req/s [%.0f, %.0f]  p99 %8.3f ms [%.3f, %.3f]  cpu %7.4f ms/req [%.4f, %.4f]  (n=%d, %.0f%% CI)%s%s%n",
                    row.variant(), row.scenario(), row.key().describe(), row.rps(), step.rps().ciLow(), step.rps().ciHigh(),
                    row.latP99Ms(), step.p99().ciLow(), step.p99().ciHigh(), row.cpuMsPerReq(), step.cpu().ciLow(),
                    step.cpu().ciHigh(), step.repeats(), 100 * step.rps().confidence(),
                    (step.steady() ? "" : "  NOT STEADY x" + step.notSteadySamples())
                            + (step.warmupUnsettledSamples() == 0 ? "" : "  WARM-UP CUT SHORT x" + step.warmupUnsettledSamples()),
                    step.loadSaturated() ? "  SATURATED" : "");
        }
        out.flush();
    }

    /** The capacities found under {@code --sla}: per variant and scenario, the median over the passes and their range. */
    void capacities(List<CapacityCsv.Summary> capacities) {
        out.println("capacity (highest offered rate meeting the SLA with no error; median of the passes [min, max]):");
        for (CapacityCsv.Summary c : capacities) {
            CapacityRecord first = c.first();
            out.printf(Locale.ROOT, "  %-22s %-9s %-8s under %-12s %9.0f req/s [%.0f, %.0f]  (n=%d)%s%n", first.variant(),
                    first.scenario(), first.conditions().label(), first.sla(), c.capacity().median(), c.capacity().min(),
                    c.capacity().max(), c.searches().size(),
                    c.searches().size() == 1 ? "  " + first.reason() : "");
        }
        out.flush();
    }

    public String eta() {
        long perVariant = variantsDone == 0 ? 8_000 : overheadMillis / variantsDone;
        return format(remainingPlannedMillis + perVariant * remainingVariants);
    }

    public String elapsed() {
        return format((System.nanoTime() - startNanos) / 1_000_000);
    }

    static String format(long millis) {
        long s = Math.max(0, millis / 1000);
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
}
