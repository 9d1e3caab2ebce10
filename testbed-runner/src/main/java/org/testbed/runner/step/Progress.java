package org.testbed.runner.step;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.testbed.driver.SecondListener;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.Saturation;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.stats.PrecisionTarget;
import org.testbed.runfolder.stats.Spread;
import org.testbed.runner.jfr.RecordingLine;

/**
 * Console progress: one line per sample and an estimate of the time left, and on a terminal the
 * current window's last second on a line rewritten in place ({@link LiveLine}). The estimate adds the
 * measured windows still to come, the warm-ups still to come at the average length of those done
 * so far (at their limit before the first has ended: a warm-up ends when the server is steady,
 * which cannot be known in advance), and each server start still to come at the average overhead
 * (start, preload, health checks, stop) of those done.
 */
public final class Progress {
    private final PrintStream out;
    /** The current window's last second, on a terminal; cleared before every other line. */
    private final LiveLine live;
    private final RunRecorder recorder;
    private int totalSteps;
    private final long startNanos = System.nanoTime();
    private final long warmupLimitMillis;
    /** A server's start, preload, health checks and stop before one has been timed. */
    private static final long FIRST_OVERHEAD_MILLIS = 8_000;
    private long remainingMeasuredMillis;
    private int remainingWarmUps;
    private int warmUpsDone;
    private long warmUpMillisDone;
    private int remainingVariants;
    private int variantsDone;
    private long overheadMillis;
    private int stepsDone;

    /**
     * @param totalSteps samples to measure in all
     * @param measuredMillis their windows, in all
     * @param warmUps warm-ups in all
     * @param warmupLimit the longest a warm-up may last
     * @param variants server starts in all
     */
    Progress(PrintStream out, RunRecorder recorder, int totalSteps, long measuredMillis, int warmUps, Duration warmupLimit,
             int variants) {
        this.out = out;
        this.live = LiveLine.of(out);
        this.recorder = recorder;
        this.totalSteps = totalSteps;
        this.remainingMeasuredMillis = measuredMillis;
        this.remainingWarmUps = warmUps;
        this.warmupLimitMillis = warmupLimit.toMillis();
        this.remainingVariants = variants;
    }

    public void info(String message) {
        live.clear();
        out.println(message);
        out.flush();
    }

    /** What the driver tells each second of a window of {@code length} ({@link LiveLine#during}). */
    SecondListener live(String what, Duration length) {
        return live.during(what, length);
    }

    /**
     * A fork added to the plan ({@code --precision}): one more start and warm-up, and {@code samples}
     * more windows of {@code measuredMillis} in all.
     */
    void added(int samples, long measuredMillis) {
        totalSteps += samples;
        remainingMeasuredMillis += measuredMillis;
        remainingWarmUps++;
        remainingVariants++;
    }

    /** A window measured again because the one before ran on a slow machine: one more sample of {@code d}. */
    void retake(Duration d) {
        totalSteps++;
    }

    /** A measured window has passed. */
    public void planned(Duration d) {
        remainingMeasuredMillis = Math.max(0, remainingMeasuredMillis - d.toMillis());
    }

    /** A warm-up has ended after {@code seconds}. */
    void warmUpDone(double seconds) {
        warmUpsDone++;
        warmUpMillisDone += Math.round(seconds * 1000);
        remainingWarmUps = Math.max(0, remainingWarmUps - 1);
    }

    /** The longest the run can take (every warm-up to its limit, every start as long as a first guess allows). */
    String atMost() {
        return format(remainingMeasuredMillis + remainingWarmUps * warmupLimitMillis + remainingVariants * FIRST_OVERHEAD_MILLIS);
    }

    public void variantDone(long overhead) {
        variantsDone++;
        remainingVariants = Math.max(0, remainingVariants - 1);
        overheadMillis += overhead;
    }

    /**
     * One line per measured sample: its figures, the flags that make them suspect, and once a step
     * has two samples or more, the range of its throughput and p99 so far. A sample of several
     * operations adds one indented line of their p99s ({@link #perOperation}).
     */
    void step(Sample sample) {
        live.clear();
        stepsDone++;
        ResultRow row = sample.row();
        StepRecord step = sample.step();
        List<Sample> soFar = recorder.samplesOf(row.key());
        String spread = "";
        if (soFar.size() >= 2) {
            StepAggregate a = StepAggregate.of(soFar);
            spread = String.format(Locale.ROOT, "  [n=%d: %.0f..%.0f req/s, p99 %.3f..%.3f ms]", soFar.size(),
                    a.step().repeats().rps().min(), a.step().repeats().rps().max(), a.step().repeats().p99().min(), a.step().repeats().p99().max());
        }
        out.printf(Locale.ROOT, "[%3d/%d] %-22s %-9s %-8s %9.0f req/s  p99 %8.3f ms%s  cpu %7.4f ms/req%s  load CPU %3.0f%%%s%s%s%s%s  ETA %s%n",
                stepsDone, totalSteps, row.variant(), row.scenario(), row.key().describe(), row.throughput().rps(), row.latency().p99Ms(),
                connectRetries(step.server().listenQueueOverflowed()), row.server().cpuMsPerReq(), SaturationAccounting.headline(step.server().saturation(), row.throughput().requests())
                        + sample.probed().recording().map(RecordingLine::headline).orElse(""),
                step.load().loadSidePct(), step.load().saturated() ? " SATURATED" : "",
                step.load().otherLoadPct() > LoadAccounting.NOISE_PCT
                        ? String.format(Locale.ROOT, "  NOT QUIET (%.0f%% other load)", step.load().otherLoadPct()) : ""
                        + (sample.sample().leftOut() ? "  SLOW MACHINE (" + SlowWindows.speeds(sample.sample().measured()) + ")" : ""),
                (sample.sample().caveats().steady() ? "" : "  NOT STEADY") + (sample.sample().caveats().warmupSettled() ? "" : "  WARM-UP CUT SHORT"),
                row.throughput().errors() > 0 ? "  errors " + row.throughput().errors() : "",
                unfinished(sample.sample().measured()) + spread, eta());
        String operations = perOperation(sample.operations());
        if (!operations.isEmpty()) {
            out.println(operations);
        }
        out.flush();
    }

    /**
     * The requests the driver cut when the window ended, beside the errors and apart from them:
     * {@code   unfinished 1}; empty when there were none or the driver did not say.
     */
    static String unfinished(Measured measured) {
        double unfinished = measured.get(Figure.UNFINISHED);
        return unfinished > 0 ? "  unfinished " + Figure.UNFINISHED.format(unfinished) : "";
    }

    /**
     * The caveat beside the latency of a sample or step whose listen queue overflowed: its slowest
     * requests waited for a dropped connection attempt to be retried, so its p99 is not the server's.
     */
    static String connectRetries(boolean overflowed) {
        return overflowed ? " (" + Saturation.CONNECT_RETRIES + ")" : "";
    }

    /**
     * Each operation's p99, in the driver's order, and the share of the requests of the most frequent
     * one, so that the line says which figure dominates the step's: {@code per operation p99: GET
     * 3.100 ms (80%), POST 4.900 ms, ...}. Empty for a sample of one operation (or none), whose p99
     * the step line has. A sample its driver could not break down says so and why: {@code per
     * operation: n/a (wrk keeps one latency histogram for all requests)}.
     */
    static String perOperation(List<OperationRecord> operations) {
        if (operations.size() == 1 && !operations.get(0).available()) {
            return "     per operation: " + operations.get(0).operation();
        }
        if (operations.size() < 2) {
            return "";
        }
        long total = operations.stream().mapToLong(OperationRecord::requests).sum();
        OperationRecord most = operations.stream().max(Comparator.comparingLong(OperationRecord::requests)).orElseThrow();
        return operations.stream()
                .map(o -> String.format(Locale.ROOT, "%s %.3f ms", o.operation(), o.latency().p99Ms())
                        + (o == most && total > 0 ? String.format(Locale.ROOT, " (%.0f%%)", 100.0 * o.requests() / total) : ""))
                .collect(Collectors.joining(", ", "     per operation p99: ", ""));
    }

    /**
     * The steps of a repeated run: the median of each figure with its confidence interval (the
     * coverage the number of repeats allows) and the flags.
     */
    void summary(List<StepAggregate> steps) {
        live.clear();
        out.println("steps (median of the samples [95 % interval of the centre, fork by fork] ±the smallest change it can tell):");
        for (StepAggregate a : steps) {
            ResultRow row = a.row();
            StepRecord step = a.step();
            StepRecord.Repeats r = step.repeats();
            StepRecord.Steadiness st = step.steadiness();
            StepRecord.Precision p = step.precision();
            out.printf(Locale.ROOT, "  %-22s %-9s %-8s %9.0f req/s [%.0f, %.0f] %s  p99 %8.3f ms [%.3f, %.3f] %s%s  cpu %7.4f ms/req"
                            + " [%.4f, %.4f] %s  (n=%d, %s)%s%s%s%n",
                    row.variant(), row.scenario(), row.key().describe(), row.throughput().rps(), r.rps().ciLow(),
                    r.rps().ciHigh(), halfWidth(r.rps()), row.latency().p99Ms(), r.p99().ciLow(), r.p99().ciHigh(),
                    halfWidth(r.p99()), step.server().listenQueueOverflowed() ? String.format(Locale.ROOT, " (%d of %d samples: %s)",
                            Math.max(1, step.server().listenOverflowSamples()), r.count(), Saturation.CONNECT_RETRIES) : "",
                    row.server().cpuMsPerReq(), r.cpu().ciLow(), r.cpu().ciHigh(), halfWidth(r.cpu()),
                    r.count(), forks(p),
                    (st.steady() ? "" : "  NOT STEADY x" + st.notSteadySamples())
                            + (st.warmupUnsettledSamples() == 0 ? "" : "  WARM-UP CUT SHORT x" + st.warmupUnsettledSamples()),
                    step.load().saturated() ? "  SATURATED" : "",
                    p.status().isEmpty() ? "" : p.missed() ? String.format(Locale.ROOT, "  WIDER THAN ±%s %%", PrecisionTarget.percent(p.targetPct()))
                            : String.format(Locale.ROOT, "  within ±%s %%", PrecisionTarget.percent(p.targetPct())));
        }
        out.flush();
    }

    /** {@code ±3.2%}: the interval's half-width, the smallest change the step can tell; {@code ±?} without an interval. */
    static String halfWidth(Spread spread) {
        double h = spread.halfWidthPct();
        return Double.isNaN(h) ? "±?" : String.format(Locale.ROOT, "±%.1f%%", h);
    }

    /** {@code 3 forks, 1 added} or {@code one fork}. */
    private static String forks(StepRecord.Precision p) {
        if (p.forks() <= 1) {
            return "one fork";
        }
        return p.forks() + " forks" + (p.addedForks() > 0 ? ", " + p.addedForks() + " added" : "");
    }


    /** The capacities found under {@code --sla}: per variant and scenario, the median over the passes and their range. */
    void capacities(List<CapacityCsv.Summary> capacities) {
        live.clear();
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
        long perVariant = variantsDone == 0 ? FIRST_OVERHEAD_MILLIS : overheadMillis / variantsDone;
        long perWarmUp = warmUpsDone == 0 ? warmupLimitMillis : warmUpMillisDone / warmUpsDone;
        return format(remainingMeasuredMillis + remainingWarmUps * perWarmUp + perVariant * remainingVariants);
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
