package org.testbed.runner.step;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * Console progress: one line per step and an estimate of the time left, from the planned step and
 * warm-up time still to come plus the measured average overhead (start, preload, stop) per variant.
 */
public final class Progress {
    private final PrintStream out;
    private final int totalSteps;
    private final long startNanos = System.nanoTime();
    private long remainingPlannedMillis;
    private int remainingVariants;
    private int variantsDone;
    private long overheadMillis;
    private int stepsDone;

    public Progress(PrintStream out, int totalSteps, long plannedMillis, int variants) {
        this.out = out;
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

    /** One line per measured sample: its figures, and the flags that make them suspect. */
    void step(Sample sample) {
        stepsDone++;
        var row = sample.row();
        var step = sample.step();
        out.printf(Locale.ROOT, "[%3d/%d] %-22s %-9s %-8s %9.0f req/s  p99 %8.3f ms  cpu %7.4f ms/req  load CPU %3.0f%%%s%s%s  ETA %s%n",
                stepsDone, totalSteps, row.variant(), row.scenario(), row.key().level(), row.rps(), row.latP99Ms(),
                row.cpuMsPerReq(), step.loadSidePct(), step.loadSaturated() ? " SATURATED" : "",
                step.otherLoadPct() > LoadAccounting.NOISE_PCT
                        ? String.format(Locale.ROOT, "  NOT QUIET (%.0f%% other load)", step.otherLoadPct()) : "",
                row.errors() > 0 ? "  errors " + row.errors() : "", eta());
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
