package org.testbed.runner.fault;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.testbed.driver.ErrorKind;
import org.testbed.driver.ErrorSeconds;
import org.testbed.driver.IntervalLog;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runfolder.FaultSpec;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.timeline.FaultInterval;
import org.testbed.runfolder.timeline.FaultIntervalsCsv;
import org.testbed.runner.probe.Probe;
import org.testbed.runner.probe.ProbeResult;
import org.testbed.runner.probe.Window;

/**
 * The faults of {@code --fault} inside one measured window, and what they cost it: started from
 * the window's opening on a thread of their own (each at its time, its end at its end), undone
 * whatever happens once the window closes, and read back second by second from what the driver
 * counted ({@link Recovery}, the errors by kind from the fault's start until the window was back).
 * Each fault's interval goes beside the sample's interval log ({@link FaultIntervalsCsv}) for the
 * report's through-time view.
 *
 * <p>The thread starts at the window's expected opening ({@code leadIn} after it is asked to: the
 * open model's arrivals start a second early); the figures place each fault where it happened
 * against the window's own start, so a late start costs precision of nothing but the plan.
 */
public final class FaultProbe implements Probe {
    private final List<FaultSpec> specs;
    private final List<StoreFault> faults = new ArrayList<>();
    private final Duration leadIn;
    private final Path hlog;
    /** When each fault took effect and ended, ms since the epoch; written by the fault thread. */
    private final long[][] happened;
    private Thread thread;
    private volatile Exception failed;
    private ProbeResult result = ProbeResult.NONE;

    /**
     * @param restarted told memcached's new process id when a fault started it afresh
     * @param proxy the proxy the variants reach memcached through, for a fault of the connections; null when none
     * @param leadIn how long after {@link #beforeWindow} the window opens
     * @param hlog the sample's interval log, beside which the faults file goes
     */
    public FaultProbe(List<FaultSpec> specs, MemcachedProcess memcached, LongConsumer restarted, StoreProxy proxy,
                      Duration leadIn, Path hlog) {
        this.specs = List.copyOf(specs);
        for (FaultSpec spec : specs) {
            faults.add(StoreFault.of(spec, memcached, restarted, proxy));
        }
        this.leadIn = leadIn;
        this.hlog = hlog;
        this.happened = new long[specs.size()][2];
    }

    @Override
    public String observes() {
        return "fault " + specs;
    }

    @Override
    public Set<Figure> figures() {
        return EnumSet.of(Figure.RECOVERY, Figure.UNRECOVERED, Figure.FAULT_STATUS, Figure.FAULT_TIMEOUTS,
                Figure.FAULT_CONNECTION, Figure.WRONG);
    }

    @Override
    public void beforeWindow() {
        long opens = System.nanoTime() + leadIn.toNanos();
        thread = new Thread(() -> inject(opens), "store-fault");
        thread.setDaemon(true);
        thread.start();
    }

    private void inject(long opens) {
        try {
            for (int i = 0; i < faults.size(); i++) {
                sleepUntil(opens + specs.get(i).at().toNanos());
                // In effect from the signal on (a kill may take a while to be reaped; a stop, a few ms to reach every thread).
                happened[i][0] = System.currentTimeMillis();
                faults.get(i).begin();
                sleepUntil(opens + specs.get(i).end().toNanos());
                faults.get(i).end();
                happened[i][1] = System.currentTimeMillis();
            }
        } catch (InterruptedException e) {
            // the window closed early: restored after it
        } catch (RuntimeException e) {
            failed = e;
        }
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        for (long left = nanos - System.nanoTime(); left > 0; left = nanos - System.nanoTime()) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /** The store is back whatever happened: a fault still in effect is undone before anything else runs. */
    @Override
    public void afterWindow() throws IOException, InterruptedException {
        try {
            if (thread != null) {
                thread.interrupt();
                thread.join(TimeUnit.SECONDS.toMillis(15));
            }
        } finally {
            for (StoreFault fault : faults) {
                fault.restore();
            }
        }
        if (failed != null) {
            throw new IOException("could not carry it out: " + failed.getMessage(), failed);
        }
    }

    @Override
    public void afterStep(Window window) throws IOException {
        IntervalLog log = window.result().intervals();
        if (log.isEmpty()) {
            throw new IOException("the driver kept no per-second figures (testbed-nio does): nothing to read the fault from");
        }
        Cost cost = Cost.none();
        List<FaultInterval> intervals = new ArrayList<>();
        StringBuilder raw = new StringBuilder();
        for (int i = 0; i < specs.size(); i++) {
            if (happened[i][1] == 0) {
                raw.append("\nfault ").append(specs.get(i).label()).append(": did not happen within the window");
                continue;
            }
            FaultTimes times = new FaultTimes((happened[i][0] - log.startEpochMillis()) / 1000.0,
                    (happened[i][1] - log.startEpochMillis()) / 1000.0);
            Cost one = Cost.of(log, times);
            cost = cost.and(one);
            intervals.add(new FaultInterval(specs.get(i).label(), times.fromS(), times.toS(),
                    one.recovery().firstBack().isPresent() ? one.recovery().firstBack().getAsInt() : Double.NaN));
            raw.append("\nfault ").append(specs.get(i).label()).append(": ").append(one.describe(times));
        }
        long wrong = log.errors().total(ErrorKind.WRONG_ANSWER);
        raw.append("\nwrong answers in the window: ").append(wrong);
        FaultIntervalsCsv.TABLE.write(FaultIntervalsCsv.beside(hlog), intervals);
        Map<Figure, Double> figures = new EnumMap<>(Figure.class);
        if (!intervals.isEmpty()) {
            figures.putAll(cost.figures());
        }
        figures.put(Figure.WRONG, (double) wrong);
        result = ProbeResult.NONE.withFigures(new Measured(figures)).withRawText(raw.toString());
    }

    @Override
    public ProbeResult result() {
        return result;
    }

    /**
     * What one or more faults cost a window: the longest recovery (none when one never recovered), the
     * errors by kind of each from its start until the window was back, added up.
     */
    record Cost(Recovery recovery, boolean anyUnrecovered, int worstSeconds, Map<ErrorKind, Long> errors) {

        static Cost none() {
            return new Cost(null, false, 0, new EnumMap<>(ErrorKind.class));
        }

        static Cost of(IntervalLog log, FaultTimes times) {
            int whole = (int) Math.floor(log.seconds() + 1e-9);
            ErrorSeconds errors = log.errors();
            double[] rps = new double[whole];
            double[] p99 = new double[whole];
            for (int s = 0; s < whole; s++) {
                long failed = 0;
                for (ErrorKind k : ErrorKind.values()) {
                    failed += errors.count(k, s);
                }
                rps[s] = Math.max(0, log.count(s) - failed);
                p99[s] = log.p99Ms(s);
            }
            return of(rps, p99, errors, times);
        }

        /**
         * @param rps answered (not failed) requests of each whole second of the window
         * @param p99 each whole second's p99, ms
         * @param errors the window's errors by kind and second
         */
        static Cost of(double[] rps, double[] p99, ErrorSeconds errors, FaultTimes times) {
            Recovery recovery = Recovery.of(rps, p99, times);
            int from = (int) Math.floor(times.fromS());
            int to = recovery.firstBack().orElse(errors.seconds());
            Map<ErrorKind, Long> byKind = new EnumMap<>(ErrorKind.class);
            for (ErrorKind k : ErrorKind.values()) {
                byKind.put(k, errors.count(k, from, to));
            }
            return new Cost(recovery, !recovery.recovered(), recovery.seconds().orElse(0), byKind);
        }

        Cost and(Cost other) {
            Map<ErrorKind, Long> sum = new EnumMap<>(errors);
            other.errors.forEach((k, v) -> sum.merge(k, v, Long::sum));
            Recovery worse = recovery == null || other.worstSeconds >= worstSeconds ? other.recovery : recovery;
            return new Cost(worse, anyUnrecovered || other.anyUnrecovered, Math.max(worstSeconds, other.worstSeconds), sum);
        }

        Map<Figure, Double> figures() {
            Map<Figure, Double> f = new EnumMap<>(Figure.class);
            if (!anyUnrecovered) {
                f.put(Figure.RECOVERY, (double) worstSeconds);
            }
            f.put(Figure.UNRECOVERED, anyUnrecovered ? 1.0 : 0.0);
            f.put(Figure.FAULT_STATUS, (double) errors.getOrDefault(ErrorKind.STATUS, 0L));
            f.put(Figure.FAULT_TIMEOUTS, (double) errors.getOrDefault(ErrorKind.TIMEOUT, 0L));
            f.put(Figure.FAULT_CONNECTION, (double) errors.getOrDefault(ErrorKind.CONNECTION, 0L));
            return f;
        }

        String describe(FaultTimes times) {
            return String.format(Locale.ROOT, "in effect %.3f-%.3f s of the window; before it %.1f req/s answered, p99 %.3f ms;"
                            + " %s; errors from its start until back: status %d, timeouts %d, connection %d, other %d",
                    times.fromS(), times.toS(), recovery.baselineRps(), recovery.baselineP99Ms(),
                    recovery.recovered() ? "back " + recovery.seconds().getAsInt() + " s after it (second "
                            + recovery.firstBack().getAsInt() + ")" : "not recovered within the window",
                    errors.get(ErrorKind.STATUS), errors.get(ErrorKind.TIMEOUT), errors.get(ErrorKind.CONNECTION),
                    errors.get(ErrorKind.OTHER));
        }
    }
}
