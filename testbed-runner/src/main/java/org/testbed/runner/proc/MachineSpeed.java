package org.testbed.runner.proc;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;

/**
 * How fast this machine's CPU runs a fixed piece of work right now, timed in the probing thread's
 * own CPU time, so that waiting for a CPU does not count, only how fast the CPU ran once it had
 * one. {@code ./testbed machine} and the reference beside every window of a run
 * ({@link SpeedReference}) time this loop and read it with {@link Summary}.
 *
 * <p>Why: on a VM the host may run other tenants on the same physical cores, or on the other
 * hyperthread of one, and the guest's CPUs then run slower without any sign inside it, while
 * {@code /proc/stat}'s steal stays at 0 and no other process runs. A benchmark window measured in
 * such a spell measures the host. The same loop timed in wall time and in its thread's CPU time dips
 * alike, so the thread's CPU time sees it.
 *
 * <p>Why {@value #LOOP_MS} ms: a loop times its own jitter too (a timer tick, an interrupt, a cache
 * line evicted by a context switch), and the shorter the loop the larger that jitter's share. Timed
 * on a pinned CPU ({@code ./testbed machine --loop-lengths 0.3,1,3,10,30}), the short loops read two
 * to three times as many slow probes as the 10 ms one in the same rounds, and 30 ms was no steadier;
 * on a quiet machine a 0.3 ms loop read "under 0.9" in most of its probes and the 10 ms one scattered
 * by 0.6 % (docs/FINDINGS.md has the readings).
 */
public final class MachineSpeed {
    /** The validated loop's length at full speed, in milliseconds. */
    public static final int LOOP_MS = 10;
    /** The validated loop's length at full speed. */
    public static final Duration LOOP = Duration.ofMillis(LOOP_MS);
    /** The work of one probe before it is calibrated: 10 to 25 ms on the machines it ran on (1 to 2.5 ns a unit). */
    static final int UNITS = 10_000_000;
    /** The loop the calibration times: about a millisecond. */
    private static final int CALIBRATION_UNITS = 1_000_000;
    /** The speed under which a probe counts as slow, relative to the fastest tenth of the probes. */
    public static final double SLOW = 0.9;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final int units;
    private int sink = 1;

    /** A loop of {@link #UNITS}, not calibrated to this machine. */
    public MachineSpeed() {
        this(UNITS);
    }

    /**
     * The validated loop on this machine: about a millisecond of the loop timed over and over for
     * {@code warmUp} (the JIT compiles it meanwhile), then as many units as the fastest of those took
     * to fill {@link #LOOP}. A CPU's speed differs by machine, so the loop is held to its length, not
     * to its count of units.
     */
    public static MachineSpeed calibrated(Duration warmUp) {
        MachineSpeed probe = new MachineSpeed(CALIBRATION_UNITS);
        long end = System.nanoTime() + warmUp.toNanos();
        long fastest = Long.MAX_VALUE;
        do {
            long n = probe.probeNanos();
            if (n > 0) {
                fastest = Math.min(fastest, n);
            }
        } while (System.nanoTime() < end || fastest == Long.MAX_VALUE);
        return new MachineSpeed(unitsFor(LOOP, CALIBRATION_UNITS, fastest));
    }

    /** A loop of {@code units} (1 to 2.5 ns each on the machines it ran on): the lengths the validation compares. */
    public MachineSpeed(int units) {
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot read a thread's CPU time, which the probe is timed in");
        }
        if (units <= 0) {
            throw new IllegalArgumentException("a loop of " + units + " units");
        }
        this.units = units;
    }

    /** The units that take about {@code length} given that {@code units} took {@code nanos}: a loop of another length. */
    public static int unitsFor(Duration length, long units, long nanos) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round((double) units * length.toNanos() / nanos)));
    }

    /** The CPU nanoseconds the fixed work took on this thread, now. */
    public long probeNanos() {
        long start = threads.getCurrentThreadCpuTime();
        sink = work(units, sink);
        return threads.getCurrentThreadCpuTime() - start;
    }

    /** The units of work one probe does. */
    public int units() {
        return units;
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
     * The machine's full speed as a series of probes shows it: the 10th percentile of their times
     * (the fastest tenth), robust to one lucky probe and to the slow spells that cover up to a
     * third of the time on a shared host.
     */
    public static double fullSpeedOf(long[] probeNanos) {
        if (probeNanos.length == 0) {
            throw new IllegalArgumentException("no probes");
        }
        long[] sorted = probeNanos.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 10];
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
     * @param cvPct the coefficient of variation of the probes' times, in per cent: the loop's own jitter
     *              on an idle CPU, the machine's changes of speed besides on a shared one
     * @param probes how many probes
     */
    public record Summary(double fullSpeedNanos, double medianSpeed, double slowestSpeed, double slowShare,
                          int longestSlowSpell, double cvPct, int probes) {

        public static Summary of(long[] probeNanos) {
            double full = fullSpeedOf(probeNanos);
            long[] sorted = probeNanos.clone();
            Arrays.sort(sorted);
            int slow = 0;
            int spell = 0;
            int longest = 0;
            double sum = 0;
            for (long n : probeNanos) {
                sum += n;
                if (full / n < SLOW) {
                    slow++;
                    longest = Math.max(longest, ++spell);
                } else {
                    spell = 0;
                }
            }
            double mean = sum / probeNanos.length;
            double squares = 0;
            for (long n : probeNanos) {
                squares += (n - mean) * (n - mean);
            }
            double sd = probeNanos.length < 2 ? 0 : Math.sqrt(squares / (probeNanos.length - 1));
            return new Summary(full, full / sorted[(sorted.length - 1) / 2], full / sorted[sorted.length - 1],
                    (double) slow / probeNanos.length, longest, 100 * sd / mean, probeNanos.length);
        }

        /** A probe's speed: full speed over its time. */
        public double speedOf(long probeNanos) {
            return fullSpeedNanos / probeNanos;
        }
    }
}
