package org.testbed.runner.proc;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * How fast this machine's CPU runs a fixed piece of work right now, timed in the probing thread's
 * own CPU time, so that waiting for a CPU does not count, only how fast the CPU ran once it had
 * one.
 *
 * <p>Why: on a VM the host may run other tenants on the same physical cores, or on the other
 * hyperthread of one, and the guest's CPUs then run slower without any sign inside it: on the
 * reference VM a loop ran at 0.57–0.90 of its speed a third of the time, in bursts of up to
 * about 20 s on both vCPUs at once, while {@code /proc/stat}'s steal stayed at 0 and no other
 * process ran. A benchmark window measured in such a burst measures the host. The same loop timed
 * in wall time and in its thread's CPU time dipped alike (0.57 and 0.57), so the thread's CPU time
 * sees it.
 */
public final class MachineSpeed {
    /** The work of one probe: about 0.3 ms on the reference VM at full speed. */
    static final int UNITS = 300_000;
    /** The speed under which a probe counts as slow, relative to the fastest tenth of the probes. */
    public static final double SLOW = 0.9;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private int sink = 1;

    public MachineSpeed() {
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot read a thread's CPU time, which the probe is timed in");
        }
    }

    /** The CPU nanoseconds the fixed work took on this thread, now. */
    public long probeNanos() {
        long start = threads.getCurrentThreadCpuTime();
        sink = work(UNITS, sink);
        return threads.getCurrentThreadCpuTime() - start;
    }

    /** A xorshift chain: integer work with no memory traffic, no allocation and nothing the JIT can fold away. */
    static int work(int units, int seed) {
        int x = seed | 1;
        for (int i = 0; i < units; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
        }
        return x;
    }

    /**
     * A series of probes summarised: each probe's speed is the fastest tenth's time over its own
     * (1 at full speed, 0.6 when it took 1.67 times as long).
     *
     * @param fullSpeedNanos the 10th percentile of the probes' times: the machine at full speed
     * @param medianSpeed the median probe's speed
     * @param slowestSpeed the slowest probe's speed
     * @param slowShare the share of probes under {@link #SLOW}, 0..1
     * @param longestSlowSpell the most probes in a row under {@link #SLOW}
     */
    public record Summary(double fullSpeedNanos, double medianSpeed, double slowestSpeed, double slowShare,
                          int longestSlowSpell) {

        public static Summary of(long[] probeNanos) {
            if (probeNanos.length == 0) {
                throw new IllegalArgumentException("no probes");
            }
            long[] sorted = probeNanos.clone();
            Arrays.sort(sorted);
            double full = sorted[(sorted.length - 1) / 10];
            int slow = 0;
            int spell = 0;
            int longest = 0;
            for (long n : probeNanos) {
                if (full / n < SLOW) {
                    slow++;
                    longest = Math.max(longest, ++spell);
                } else {
                    spell = 0;
                }
            }
            return new Summary(full, full / sorted[(sorted.length - 1) / 2], full / sorted[sorted.length - 1],
                    (double) slow / probeNanos.length, longest);
        }

        /** A probe's speed: full speed over its time. */
        public double speedOf(long probeNanos) {
            return fullSpeedNanos / probeNanos;
        }
    }
}
