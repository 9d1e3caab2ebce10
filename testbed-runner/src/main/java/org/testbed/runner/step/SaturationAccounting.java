package org.testbed.runner.step;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.testbed.runfolder.csv.Saturation;
import org.testbed.runner.proc.CgroupCpu;
import org.testbed.runner.proc.SaturationReading;
import org.testbed.runner.proc.TcpCounters;
import org.testbed.runner.proc.ThreadSchedules;

/**
 * Whether the server was short of something over a step, from the {@link SaturationReading}s of two
 * {@link ServerSnapshot}s: the figures steps.csv and samples.csv keep ({@link Saturation}), the lines
 * of the raw file that show how they were computed, and the few words the console's step line adds
 * when they say something.
 *
 * @param threads what its threads did between the readings
 * @param tcp the TCP counters' differences (its network namespace's)
 * @param throttling its cgroup's throttling, null without a CPU limit
 * @param usableCpus the CPUs' worth of time it could use ({@link SaturationReading#usableCpus})
 * @param windowS the time between the two readings, seconds: the load's window and the moments around it
 */
record SaturationAccounting(Saturation figures, ThreadSchedules.Delta threads, TcpCounters tcp,
                            CgroupCpu.Throttling throttling, double usableCpus, double windowS) {

    /**
     * Run-queue wait, as a share of the server's CPUs' time, from which the console says it: a few
     * percent is what any busy machine shows (a thread woken waits its turn behind another for a
     * moment); at a tenth, requests queue for CPU time and latency grows with it.
     */
    static final double QUEUED_PCT = 10;

    /**
     * TCP retransmits per request from which the console names them: each costs the request it hits
     * at least the 200 ms minimum retransmission timeout, so at one in a hundred they reach the p99.
     * Fewer are the namespace's background (its counters count every socket in it, other programs'
     * too).
     */
    static final double RETRANSMITS_PER_REQ = 0.01;

    /** A step whose snapshots had no saturation readings (the server's machine could not give them). */
    static final SaturationAccounting NONE = new SaturationAccounting(Saturation.UNKNOWN, null, null, null, 0, 0);

    /**
     * The figures between two snapshots. The wait's share is of the time between the readings, not
     * of the load's window alone: the counts cover that whole time (the driver's lead-in and its
     * last answers too), as the CPU time per request does.
     */
    static SaturationAccounting of(ServerSnapshot before, ServerSnapshot after, long requests) {
        SaturationReading a = before.saturation();
        SaturationReading b = after.saturation();
        if (a == null || b == null) {
            return NONE;
        }
        double windowS = (b.nanos() - a.nanos()) / 1e9;
        ThreadSchedules.Delta threads = b.threads().since(a.threads());
        TcpCounters tcp = b.tcp().minus(a.tcp());
        CgroupCpu.Throttling throttling = a.throttling().isPresent() && b.throttling().isPresent()
                ? b.throttling().get().minus(a.throttling().get()) : null;
        double usable = b.usableCpus();
        double perReq = requests > 0 ? 1.0 / requests : Double.NaN;
        double waitPct = usable > 0 && windowS > 0 ? 100.0 * threads.waitNanos() / (windowS * 1e9 * usable) : Double.NaN;
        Saturation figures = new Saturation(threads.waitNanos() / 1e3 * perReq, waitPct, threads.involuntarySwitches() * perReq,
                threads.ended(), tcp.listenOverflows(), tcp.listenDrops(), tcp.retransSegs(), b.cpuLimit(),
                throttling == null ? Double.NaN : throttling.throttledPeriods(),
                throttling == null ? Double.NaN : throttling.throttledMillis());
        return new SaturationAccounting(figures, threads, tcp, throttling, usable, windowS);
    }

    /**
     * What the console's step line adds: each reading that says the server was short of something,
     * or nothing ({@code "  queued 40% of its time (85 µs/req)  listen queue overflowed 120×"}).
     */
    static String headline(Saturation s, long requests) {
        List<String> said = new ArrayList<>();
        if (s.runQueueWaitPct() >= QUEUED_PCT) {
            said.add(String.format(Locale.ROOT, "queued %.0f%% of its time (%.0f µs/req)", s.runQueueWaitPct(),
                    s.runQueueWaitUsPerReq()));
        }
        if (s.listenOverflows() > 0) {
            said.add(String.format(Locale.ROOT, "listen queue overflowed %.0f×", s.listenOverflows()));
        } else if (s.listenDrops() > 0) {
            said.add(String.format(Locale.ROOT, "listen queue dropped %.0f", s.listenDrops()));
        }
        if (s.tcpRetransmits() > 0 && s.tcpRetransmits() >= RETRANSMITS_PER_REQ * requests) {
            said.add(String.format(Locale.ROOT, "%.0f TCP retransmits", s.tcpRetransmits()));
        }
        if (s.throttledMs() > 0) {
            said.add(String.format(Locale.ROOT, "throttled %.0f ms by its cgroup's %.2f CPUs", s.throttledMs(), s.cpuLimit()));
        }
        return said.isEmpty() ? "" : "  " + String.join("  ", said);
    }

    private static String cpus(double cpus) {
        return cpus == Math.rint(cpus) ? Long.toString((long) cpus) : String.format(Locale.ROOT, "%.2f", cpus);
    }

    /** The raw file's lines: each reading with what it was computed from. */
    String describe(long requests) {
        if (threads == null) {
            return "server saturation: not read (the server's /proc gave no per-thread schedstat, or a TCP or cgroup"
                    + " counter could not be read); its columns are empty\n";
        }
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "server run-queue wait (/proc/PID/task/*/schedstat field 2, summed): %.1f ms"
                        + " = %.2f µs/req over %d requests = %.1f%% of %.2f s between the readings x %s CPU(s) it could use%n",
                threads.waitNanos() / 1e6, figures.runQueueWaitUsPerReq(), requests, figures.runQueueWaitPct(), windowS,
                cpus(usableCpus)));
        text.append(String.format(Locale.ROOT, "server involuntary context switches (/proc/PID/task/*/status, summed): %d"
                        + " = %.4f/req; threads started %d, ended %d within the window%s%n",
                threads.involuntarySwitches(), figures.involuntarySwitchesPerReq(), threads.started(), threads.ended(),
                threads.ended() > 0 ? " (what an ended thread did after the first reading is not counted)" : ""));
        text.append(String.format(Locale.ROOT, "TCP of the server's network namespace (every socket in it, the load side's too"
                        + " when it shares it): ListenOverflows +%d, ListenDrops +%d, RetransSegs +%d%n",
                tcp.listenOverflows(), tcp.listenDrops(), tcp.retransSegs()));
        if (figures.listenQueueOverflowed()) {
            text.append("a full listen queue dropped connection attempts, which their clients retry only after the initial"
                    + " retransmission timeout (1 s on Linux): " + Saturation.CONNECT_RETRIES + "\n");
        }
        text.append(throttling == null ? "CPU throttling: no cgroup CPU limit applies to the server\n"
                : String.format(Locale.ROOT, "CPU throttling (its cgroup's cpu.stat, limit %.2f CPUs): throttled in %d of %d"
                        + " periods, %.1f ms%n", figures.cpuLimit(), throttling.throttledPeriods(), throttling.periods(),
                throttling.throttledMillis()));
        return text.toString();
    }
}
