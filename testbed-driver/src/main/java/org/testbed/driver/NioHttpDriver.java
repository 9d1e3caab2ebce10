package org.testbed.driver;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.testbed.driver.LoadResult.ClientLatency;
import org.testbed.driver.LoadResult.OperationFigures;
import org.testbed.driver.LoadResult.Throughput;
import org.testbed.driver.LoadResult.TransportCounts;
import org.testbed.driver.proc.ClockTicks;
import org.testbed.driver.proc.ProcStat;
import org.testbed.scenario.Operations;
import org.testbed.scenario.Workload;

/**
 * The runner's own load driver: a raw HTTP/1.1 client on NIO selectors, one event loop per load
 * CPU, keep-alive connections, latencies in an HdrHistogram (microseconds, 3 significant digits).
 * Every response is verified with the scenario library's checks, as every driver must.
 *
 * <ul>
 *   <li>Closed model ({@link Level#closed}): {@code concurrency} connections, each one user sending
 *       its lane's next request as soon as the previous response is in. Latency is measured from
 *       the moment the request is written, like wrk: under overload it hides queueing (coordinated
 *       omission), which is what a closed model means.</li>
 *   <li>Open model ({@link Level#open}): arrivals at a constant rate, each at its intended start
 *       time whether or not earlier requests have come back. An arrival takes an idle connection,
 *       else opens a new one (up to {@code maxConnections}), else waits in a queue. Latency is
 *       measured from the intended start, so a slow server shows up in full (corrected for
 *       coordinated omission, as wrk2 does). Arrivals begin one second before the window, at the
 *       step's rate and not measured, so the window finds the connections the rate needs open, as
 *       the closed model's does ({@link #OPEN_LEAD_IN_NANOS}).</li>
 * </ul>
 *
 * <p>Over HTTPS ({@link Target#tls()}) each connection makes one TLS handshake when it opens
 * ({@link TlsTransport}, the JDK's {@code SSLEngine}) and keeps it for every request after; with
 * {@code gzip} requests ask for gzip and compressed bodies are inflated before they are checked.
 * Both are counted: {@link LoadResult#tlsHandshakes()}, {@link LoadResult#gzipResponses()}.
 *
 * <p>Counted: responses that arrive inside the window. Requests still in flight when it ends are
 * abandoned: counted apart as unfinished ({@link LoadResult#unfinished()}), neither requests nor
 * errors, since the driver cut them, not the server. Besides the step's totals, each operation's
 * ({@link Operations}: the mix's methods, the journey's steps) and, second by second, the latencies
 * of both for an HdrHistogram interval log ({@link IntervalLog}); a {@link SecondListener} is told
 * each second's figures as soon as it is over, for a live view of a long window.
 */
public final class NioHttpDriver implements LoadDriver {
    public static final String NAME = "testbed-nio";
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long WATCH_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** How long after the grace the coordinator waits for a loop to hand a second over before it skips telling it. */
    private static final long HAND_OVER_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /**
     * Open model: arrivals at the step's rate for this long before the window, not measured. They open
     * the connections the rate needs, as the closed model connects its users before its window: without
     * it each step measured its own connection ramp, the first hundreds of ms of a 5000/s step opening
     * ~750 connections at once, and at 100/s over TLS a handful of handshakes was the whole p99.
     */
    public static final long OPEN_LEAD_IN_NANOS = SECOND;

    private final Duration requestTimeout;
    private final int maxConnections;
    private final boolean gzip;

    public NioHttpDriver(Duration requestTimeout, int maxConnections) {
        this(requestTimeout, maxConnections, false);
    }

    /** {@code gzip}: ask for gzip ({@code Accept-Encoding}) and inflate gzip responses before checking them. */
    public NioHttpDriver(Duration requestTimeout, int maxConnections, boolean gzip) {
        this.requestTimeout = requestTimeout;
        this.maxConnections = maxConnections;
        this.gzip = gzip;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(Workload workload, Level level) {
        return true;
    }

    @Override
    public LoadResult run(Target target, Workload workload, Level level, Duration duration, int loadCpus)
            throws IOException, InterruptedException {
        return run(target, workload, level, duration, loadCpus, WindowWatcher.NEVER);
    }

    /**
     * Runs one step for at most {@code max}, stopping as soon as {@code watcher} says so (asked once
     * per completed second). The result's {@link LoadResult#seconds()} is the time load was actually
     * applied. Returns within {@code max} plus a few seconds.
     */
    public LoadResult run(Target target, Workload workload, Level level, Duration max, int loadCpus,
                          WindowWatcher watcher) throws IOException, InterruptedException {
        return run(target, workload, level, max, loadCpus, watcher, SecondListener.NONE);
    }

    /**
     * As {@link #run(Target, Workload, Level, Duration, int, WindowWatcher)}, and tells {@code live}
     * the figures of each whole second of the window as soon as it is over, on this thread.
     */
    public LoadResult run(Target target, Workload workload, Level level, Duration max, int loadCpus,
                          WindowWatcher watcher, SecondListener live) throws IOException, InterruptedException {
        return run(target, workload, level, max, loadCpus, watcher, live, Duration.ZERO, () -> { });
    }

    /**
     * As {@link #run(Target, Workload, Level, Duration, int, WindowWatcher, SecondListener)}, after
     * {@code settle} of unmeasured load on the window's own connections (for the open model, at least its
     * lead-in), and tells {@code atWindowStart} when the measured window opens, on this thread, so that a
     * caller can read the server's counters at that moment: what the settle cost is then in neither the
     * window's requests nor the server's CPU.
     *
     * <p>Why settle: the first second of a window of fresh connections ran below the next ones (the mix on
     * servlet-tomcat-async, 64 users: 15 % below the second second on average, lower in 11 of 12 windows);
     * a window of 3 s that starts with it measures the connections' start as much as the server.
     */
    public LoadResult run(Target target, Workload workload, Level level, Duration max, int loadCpus,
                          WindowWatcher watcher, SecondListener live, Duration settle, Runnable atWindowStart)
            throws IOException, InterruptedException {
        int threads = Math.max(1, level.isOpen() ? loadCpus : Math.min(loadCpus, level.concurrency()));
        StepContext step = new StepContext(target, workload, requestTimeout.toNanos(), Math.max(threads, maxConnections), gzip);
        int connectionsPerLoop = (step.maxConnections + threads - 1) / threads;
        double interval = level.isOpen() ? 1e9 * threads / level.rate() : 0;
        int windows = (int) Math.max(1, (max.toNanos() + SECOND - 1) / SECOND);
        List<EventLoop> loops = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        IntervalLog.Builder intervals = new IntervalLog.Builder(step.operations.size(), level.isOpen());
        try {
            for (int i = 0; i < threads; i++) {
                double offset = interval * i / threads;
                loops.add(new EventLoop(step, windows, level.isOpen(), level.isOpen()
                        ? loop -> new OpenArrivals(loop, offset, interval, connectionsPerLoop)
                        : ClosedArrivals::new));
            }
            if (!level.isOpen()) {
                // Connect every user before the window opens, so the window measures requests only.
                for (int c = 0; c < level.concurrency(); c++) {
                    loops.get(c % threads).connectUser(workload.stream(c));
                }
            }
            ProcStat cpuBefore = ProcStat.self();
            long arrivalsFrom = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
            long start = arrivalsFrom + Math.max(level.isOpen() ? OPEN_LEAD_IN_NANOS : 0, settle.toNanos());
            long end = start + max.toNanos();
            long startEpochMillis = System.currentTimeMillis() + TimeUnit.NANOSECONDS.toMillis(start - System.nanoTime());
            for (int i = 0; i < threads; i++) {
                EventLoop loop = loops.get(i);
                loop.window(arrivalsFrom, start, end);
                Thread thread = new Thread(loop, "load-" + i);
                thread.setDaemon(true);
                thread.start();
                running.add(thread);
            }
            for (long left = start - System.nanoTime(); left > 0; left = start - System.nanoTime()) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
            // The driver's own CPU, like the server's, is the window's: the settle and lead-in are not in it.
            cpuBefore = ProcStat.self();
            atWindowStart.run();
            end = watch(loops, start, end, watcher, live, intervals);
            for (Thread thread : running) {
                thread.join(max.toMillis() + 30_000);
                if (thread.isAlive()) {
                    thread.interrupt();
                    throw new IOException("load thread " + thread.getName() + " did not finish in time");
                }
            }
            ProcStat cpuAfter = ProcStat.self();
            return summarize(loops, step.operations, intervals, windows, startEpochMillis, (end - start) / 1e9, max,
                    level, ClockTicks.toMillis(cpuAfter.minus(cpuBefore).ticks()));
        } finally {
            // On the way out after a failure, stop the loops before closing their connections under them.
            long now = System.nanoTime();
            for (EventLoop loop : loops) {
                loop.stopAt(now);
            }
            for (Thread thread : running) {
                thread.join(1_000);
            }
            for (EventLoop loop : loops) {
                loop.closeAll();
            }
        }
    }

    /**
     * After each completed second of the window: collects the seconds' histograms the loops have
     * handed over (so that a loop keeps two or three, however long the window), tells {@code live}
     * the second's figures, and asks {@code watcher} whether to stop; stops the loops when it says
     * so. Returns when the window ends: at {@code end}, or earlier if stopped.
     */
    private static long watch(List<EventLoop> loops, long start, long end, WindowWatcher watcher, SecondListener live,
                              IntervalLog.Builder intervals) throws InterruptedException {
        for (int second = 1; start + second * SECOND < end; second++) {
            // A little after the second is over, so that the loops have counted its last responses.
            long due = start + second * SECOND + WATCH_GRACE_NANOS;
            for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
            boolean listened = live != SecondListener.NONE;
            boolean whole = listened && awaitHandedOver(loops, second, due + HAND_OVER_WAIT_NANOS);
            for (EventLoop loop : loops) {
                loop.measured.intervals.collect(intervals);
            }
            if (whole) {
                live.second(secondFigures(loops, second - 1, intervals));
            }
            if (watcher == WindowWatcher.NEVER) {
                continue;
            }
            long[] completed = new long[second];
            for (EventLoop loop : loops) {
                for (int i = 0; i < second; i++) {
                    completed[i] += loop.measured.completedInSecond(i);
                }
            }
            if (watcher.stop(completed)) {
                long now = System.nanoTime();
                if (now >= end) {
                    return end;
                }
                for (EventLoop loop : loops) {
                    loop.stopAt(now);
                }
                return now;
            }
        }
        return end;
    }

    /**
     * Waits until every loop has handed over the seconds before {@code second} (each does on its
     * first turn in the new second), at most until {@code deadline}: a loop busy elsewhere or
     * stopped leaves that second's live figures untold, never late or partial.
     */
    private static boolean awaitHandedOver(List<EventLoop> loops, int second, long deadline) throws InterruptedException {
        for (EventLoop loop : loops) {
            while (!loop.measured.intervals.handedOverBefore(second)) {
                if (System.nanoTime() >= deadline) {
                    return false;
                }
                TimeUnit.MILLISECONDS.sleep(1);
            }
        }
        return true;
    }

    /** Second {@code index} of the window, whole: every loop's counts added, the latencies as collected. */
    private static SecondListener.SecondFigures secondFigures(List<EventLoop> loops, int index,
                                                              IntervalLog.Builder intervals) {
        long requests = 0;
        long errors = 0;
        for (EventLoop loop : loops) {
            requests += loop.measured.completedInSecond(index);
            errors += loop.measured.errorsInSecond(index);
        }
        return new SecondListener.SecondFigures(index, requests, errors, Latency.ofMicros(intervals.total(index)));
    }

    private static LoadResult summarize(List<EventLoop> loops, Operations operations, IntervalLog.Builder intervals,
                                        int windows, long startEpochMillis, double seconds, Duration max, Level level,
                                        double cpuMs) {
        Measurements total = new Measurements(windows, operations.size(), level.isOpen());
        long inFlight = 0;
        long queued = 0;
        int peak = 0;
        for (EventLoop loop : loops) {
            if (level.isOpen()) {
                loop.censorUnanswered();
            }
            total.add(loop.measured);
            loop.measured.intervals.collectAll(intervals);
            inFlight += loop.inFlightAtEnd();
            queued += loop.queued();
            peak += loop.peakConnections();
        }
        long[] perSecond = total.perSecond((int) Math.ceil(seconds - 1e-9));
        Latency latency = Latency.ofMicros(total.latency);
        Latency uncorrected = level.isOpen() ? Latency.ofMicros(total.uncorrected) : latency;
        Latency lag = level.isOpen() ? Latency.ofMicros(total.scheduleLag) : Latency.NONE;
        // The operations the window saw: a mix without DELETEs lists none, rather than a row of zeros.
        List<OperationFigures> figures = new ArrayList<>();
        int[] seen = IntStream.range(0, operations.size()).filter(i -> total.operationRequests[i] > 0).toArray();
        for (int i : seen) {
            long requests = total.operationRequests[i];
            figures.add(new OperationFigures(operations.labels().get(i), requests, total.operationErrors[i],
                    seconds > 0 ? requests / seconds : 0, Latency.ofMicros(total.operationLatency[i])));
        }
        IntervalLog log = intervals.build(startEpochMillis, seconds, perSecond.length, operations.labels(), seen)
                .withErrors(total.errorSeconds(perSecond.length));
        String raw = new DriverReport(level, loops.size(), seconds, max.toNanos() / 1e9, total, perSecond, cpuMs, peak,
                inFlight, queued, figures).text();
        return new LoadResult(NAME, new Throughput(total.requests, total.errors, seconds, perSecond, inFlight),
                new ClientLatency(latency, uncorrected, lag.p99(), lag.max()), cpuMs, peak,
                new TransportCounts(total.handshakes, total.compressed, total.exchanges, total.requestBytes, total.responseBytes),
                raw, figures, log);
    }
}
