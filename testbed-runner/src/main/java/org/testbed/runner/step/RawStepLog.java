package org.testbed.runner.step;

import java.util.Locale;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.driver.Level;
import org.testbed.driver.LoadResult;
import org.testbed.driver.proc.ClockTicks;
import org.testbed.runfolder.stats.SteadyState;
import org.testbed.variant.Variant;

/**
 * The text of a step's raw file: the server's /proc readings before and after, GC, memory, its
 * saturation readings ({@link SaturationAccounting#describe}), where
 * the load side's CPU went, then the driver's own output. Everything a reader needs to recompute
 * the step's CSV figures by hand. What the step's probes add follows it.
 */
final class RawStepLog {
    private RawStepLog() {
    }

    /** @param loadCpus how many CPUs the load driver had */
    static String text(ServedVariant served, SamplePlan plan, SampleReading reading, int loadCpus) {
        Variant variant = served.variant();
        long pid = served.server().pid();
        Level level = plan.level();
        ServerSnapshot before = reading.server().before();
        ServerSnapshot after = reading.server().after();
        LoadAccounting load = reading.server().load();
        LoadResult result = reading.result();
        StringBuilder raw = new StringBuilder();
        raw.append(String.format(Locale.ROOT, "variant %s (%s), pid %d, JDK %s%nscenario %s, level %s, repeat %d, started %s%n",
                variant.name(), variant.mode(), pid, served.jdk().label(), plan.workload().name(), level.label(), plan.repeat(),
                reading.startedAt()));
        raw.append(String.format(Locale.ROOT, "server /proc/%d/stat: utime %d -> %d, stime %d -> %d ticks (CLK_TCK %d):"
                        + " user %.0f ms, system %.0f ms%n", pid, before.server().utime(), after.server().utime(),
                before.server().stime(), after.server().stime(), ClockTicks.perSecond(),
                ClockTicks.toMillis(after.server().utime() - before.server().utime()),
                ClockTicks.toMillis(after.server().stime() - before.server().stime())));
        if (StepRecord.ServerSide.SCHEDSTAT.equals(load.cpuClock())) {
            raw.append(String.format(Locale.ROOT, "server CPU from its threads' schedstat (too few ticks for the window):"
                    + " %.3f ms, user %.3f ms and system %.3f ms in the ticks' proportion%n", load.userMs() + load.sysMs(),
                    load.userMs(), load.sysMs()));
        }
        raw.append(String.format(Locale.ROOT, "server GC (%s): %d -> %d collections, %.1f -> %.1f ms%n", after.gc().source(),
                before.gc().count(), after.gc().count(), before.gc().millis(), after.gc().millis()));
        raw.append(String.format(Locale.ROOT, "server RSS %.1f MiB (peak %.1f MiB)%n", after.memory().rssMb(),
                after.memory().vmHwmKb() / 1024.0));
        raw.append(reading.server().saturation().describe(result.requests()));
        raw.append(loadSide(load, result, loadCpus));
        raw.append(steadiness(reading.trend(), plan.warmUp())).append("\n\n");
        if (load.noisy()) {
            raw.append(String.format(Locale.ROOT, "NOT QUIET: %.0f%% of the server's or the load CPUs' time went to processes"
                    + " outside this run; its figures are noisy%n%n", load.otherLoadPct()));
        }
        raw.append(result.raw());
        return raw.toString();
    }

    private static String loadSide(LoadAccounting load, LoadResult result, int loadCpus) {
        return String.format(Locale.ROOT, "driver CPU %.0f ms = %.1f%% of %d CPU(s); memcached %.1f%% of them; irq+softirq"
                        + " %.1f%%: load side %.1f%%; load CPUs %s %.1f%% busy, server CPUs %s %.1f%% busy, steal %.1f%%"
                        + " (/proc/stat, anything running)%s%n",
                result.driverCpuMs(), load.driverPct(), loadCpus, load.memcachedPct(), load.loadIrqPct(), load.loadSidePct(),
                load.loadList(), load.loadBusyPct(), load.serverList(), load.serverBusyPct(), load.stealPct(),
                load.saturated() ? " — SATURATED: the load generator may have been the limit" : "");
    }

    private static String steadiness(SteadyState.Trend trend, WarmUp warmUp) {
        return String.format(Locale.ROOT, "after %.1f s of warm-up (%s); throughput over the window: first third %.0f req/s,"
                        + " last third %.0f req/s, change %+.1f%% against a threshold of %.1f%%: %s", warmUp.seconds(),
                warmUp.settled() ? "the server was steady" : "NOT SETTLED: it ended at the --warmup limit",
                trend.firstMedian(), trend.lastMedian(), 100 * trend.change(), 100 * trend.threshold(),
                trend.steady() ? "steady" : "NOT STEADY (still trending; its figures describe a moving target)");
    }
}
