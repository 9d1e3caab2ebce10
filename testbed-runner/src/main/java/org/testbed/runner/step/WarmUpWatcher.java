package org.testbed.runner.step;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.testbed.driver.WindowWatcher;
import org.testbed.runner.proc.CompilerThreads;
import org.testbed.runfolder.stats.SteadyState;

/**
 * Decides when a warm-up may end: when the server has reached its steady state. A warm-up is a
 * series of short rounds of load, each on fresh connections ({@link VariantSession}); after each,
 * this watcher is told the round's 1-second windows ({@link #roundDone}), and once a second during
 * a round it reads the server's JIT compiler threads ({@link #perSecond}). Steady means both:
 * <ul>
 *   <li>throughput has stopped rising ({@link SteadyState#settled} over the windows of all rounds);</li>
 *   <li>the compiler threads were idle over the last {@value #JIT_QUIET_SECONDS} s, that is less
 *       than {@value #JIT_QUIET_MS_PER_S} ms per second spent compiling <em>or waiting for a CPU
 *       to compile on</em> ({@link CompilerThreads}). Counting the wait is what makes it safe: a
 *       compiler starved of CPU finishes nothing, so a counter of finished compilations reads as
 *       quiet while the server runs interpreted or profiled code at a quarter of its speed, and its
 *       throughput sits on a plateau that looks steady. Seen here: spring-tomcat pinned to one core
 *       under 64 users at 4.5 k req/s for 25 s, its two compiler threads runnable but waiting
 *       1–2 s per second, before it climbed to 23 k. The last round's start, with its fresh
 *       connections, is inside those seconds, so the code that opening and closing connections
 *       runs has been compiled too: it is what every measured window begins with.</li>
 * </ul>
 *
 * <p>Without a reading of the compiler threads (no {@code /proc} task files) throughput alone
 * decides, and the console says so.
 */
final class WarmUpWatcher {
    /** Compiler busy time (running plus waiting) per second below which the JIT counts as done: 2.5 % of one CPU. */
    static final double JIT_QUIET_MS_PER_S = 25;
    static final int JIT_QUIET_SECONDS = 3;

    private record Reading(long nanos, CompilerThreads compilers) {
    }

    private final Supplier<CompilerThreads> compilers;
    private final Runnable everySecond;
    private final List<Reading> readings = new ArrayList<>();
    private final List<Double> windows = new ArrayList<>();
    private boolean settled;

    /**
     * @param compilers reads the server's compiler threads (on the machine it runs on); null when not known
     * @param everySecond run before each reading (may do nothing)
     */
    WarmUpWatcher(Supplier<CompilerThreads> compilers, Runnable everySecond) {
        this.compilers = compilers;
        this.everySecond = everySecond;
        read();
    }

    /** What a round's driver calls once a second: the compiler threads are read; the round is never cut short. */
    WindowWatcher perSecond() {
        return completedPerSecondSoFar -> {
            read();
            return false;
        };
    }

    /** A round has ended with these 1-second windows (requests per second); returns whether the server is steady. */
    boolean roundDone(double[] roundWindows) {
        read();
        for (double w : roundWindows) {
            windows.add(w);
        }
        settled = SteadyState.settled(windows.stream().mapToDouble(Double::doubleValue).toArray())
                && !(recentJitMsPerSecond() > JIT_QUIET_MS_PER_S);
        return settled;
    }

    boolean settled() {
        return settled;
    }

    private void read() {
        everySecond.run();
        readings.add(new Reading(System.nanoTime(), compilers.get()));
    }

    /**
     * Compiler busy time per second from the latest reading back to the latest one at least
     * {@value #JIT_QUIET_SECONDS} s before it (summed reading to reading, so that threads the JVM
     * added or retired in between count for the time they existed); NaN when not known.
     */
    double recentJitMsPerSecond() {
        int last = readings.size() - 1;
        long span = (long) (JIT_QUIET_SECONDS * 1e9) - 100_000_000L;
        int first = last;
        while (first > 0 && readings.get(last).nanos() - readings.get(first).nanos() < span) {
            first--;
        }
        if (first == last || readings.get(last).nanos() - readings.get(first).nanos() < span) {
            return Double.NaN;
        }
        double busy = 0;
        for (int i = first + 1; i <= last; i++) {
            CompilerThreads earlier = readings.get(i - 1).compilers();
            CompilerThreads later = readings.get(i).compilers();
            if (earlier == null || later == null) {
                return Double.NaN;
            }
            busy += later.busyMillisSince(earlier);
        }
        return busy / ((readings.get(last).nanos() - readings.get(first).nanos()) / 1e9);
    }

    /** For the console: how the warm-up ended. */
    String describe(double seconds) {
        double jit = recentJitMsPerSecond();
        String compiling = Double.isNaN(jit) ? "JIT activity unknown: throughput alone decided"
                : String.format(Locale.ROOT, "JIT compiling or waiting to %.0f ms/s over the last %d s", jit, JIT_QUIET_SECONDS);
        int n = windows.size();
        String level = n == 0 ? "" : String.format(Locale.ROOT, ", last %.0f req/s",
                windows.subList(Math.max(0, n - SteadyState.SETTLE_WINDOWS), n).stream().mapToDouble(Double::doubleValue)
                        .average().orElse(Double.NaN));
        return String.format(Locale.ROOT, "%.0f s, %s (%s%s)", seconds,
                settled ? "steady" : "NOT settled by the --warmup limit", compiling, level);
    }
}
