package org.testbed.runner.step;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.testbed.runner.load.WindowWatcher;
import org.testbed.runner.proc.JitCounters;
import org.testbed.runner.stats.SteadyState;

/**
 * Ends a warm-up when the server has reached its steady state: throughput in 1-second windows has
 * stopped rising ({@link SteadyState#settled}) <em>and</em> its JIT compilers have gone quiet (less
 * than {@value #JIT_QUIET_MS_PER_S} ms of compilation per second over the last
 * {@value #JIT_QUIET_SECONDS} s, from the JVM's own counters). Throughput alone is fooled by the
 * plateaus of a JVM compiling on one busy core: spring-tomcat pinned to one core climbs from 2 k to
 * 30 k req/s over 70 s in steps, flat for 6 s at 6 k on the way, which is where a throughput-only
 * warm-up stopped and where the figures it measured came from. Without JIT counters (a JVM run
 * with -XX:-UsePerfData) throughput alone decides.
 */
final class WarmUpWatcher implements WindowWatcher {
    /** Compilation per second below which the JIT counts as quiet: 2.5 % of one CPU. */
    static final double JIT_QUIET_MS_PER_S = 25;
    static final int JIT_QUIET_SECONDS = 3;

    private final Supplier<JitCounters> jit;
    private final List<Double> jitMillis = new ArrayList<>();
    private boolean settled;

    /** @param jit reads the server's JIT counters (on the machine it runs on), null when it has none */
    WarmUpWatcher(Supplier<JitCounters> jit) {
        this.jit = jit;
        JitCounters start = jit.get();
        jitMillis.add(start == null ? Double.NaN : start.millis());
    }

    @Override
    public boolean stop(long[] completedPerSecondSoFar) {
        JitCounters now = jit.get();
        jitMillis.add(now == null ? Double.NaN : now.millis());
        settled = SteadyState.settled(Arrays.stream(completedPerSecondSoFar).asDoubleStream().toArray())
                && !(recentJitMsPerSecond() > JIT_QUIET_MS_PER_S);
        return settled;
    }

    boolean settled() {
        return settled;
    }

    /** Compilation per second over the last {@value #JIT_QUIET_SECONDS} s; NaN when not known. */
    double recentJitMsPerSecond() {
        int n = jitMillis.size();
        if (n <= JIT_QUIET_SECONDS) {
            return Double.NaN;
        }
        return (jitMillis.get(n - 1) - jitMillis.get(n - 1 - JIT_QUIET_SECONDS)) / JIT_QUIET_SECONDS;
    }

    /** For the console: how the warm-up ended. */
    String describe(double seconds) {
        double jit = recentJitMsPerSecond();
        String compiling = Double.isNaN(jit) ? "JIT activity unknown"
                : String.format(Locale.ROOT, "JIT %.0f ms/s over the last %d s", jit, JIT_QUIET_SECONDS);
        return String.format(Locale.ROOT, "%.0f s, %s (%s)", seconds,
                settled ? "steady" : "NOT settled by the --warmup limit", compiling);
    }
}
