package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.testbed.driver.proc.ClockTicks;
import org.testbed.driver.proc.ProcStat;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runner.proc.SaturationReading;
import org.testbed.runner.proc.TcpCounters;
import org.testbed.runner.proc.ThreadSchedules;

/** How a window's server CPU time is read: this JVM's own, spinning a thread, as the runner reads a server's. */
class ServerCpuTimeTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void aWindowWithFewTicksIsReadToTheNanosecondAndAgreesWithTheTicks() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ProcStat statBefore = ProcStat.read(SELF);
        SaturationReading before = SaturationReading.read(SELF, Optional.empty());
        long spunNanos = spin(300_000_000L);
        SaturationReading after = SaturationReading.read(SELF, Optional.empty());
        ProcStat statAfter = ProcStat.read(SELF);
        ProcStat delta = statAfter.minus(statBefore);

        ServerCpuTime time = ServerCpuTime.of(delta, statAfter, before, after);
        double ms = time.userMs() + time.sysMs();
        assertThat(time.clock()).as("about 30 ticks: too few").isEqualTo(StepRecord.ServerSide.SCHEDSTAT);
        assertThat(ms).as("at least the spinning thread's own CPU time (%d ns by the JVM)", spunNanos)
                .isGreaterThanOrEqualTo(spunNanos / 1e6 * 0.99);
        // The same time the ticks count, known to the nanosecond instead of to ±2 ticks: the JIT and GC threads
        // of this JVM ran in the window too, in both.
        double tickMs = ClockTicks.toMillis(delta.utime() + delta.stime());
        assertThat(ms).isCloseTo(tickMs, within(3 * ClockTicks.toMillis(1) + 0.1 * tickMs));
        assertThat(time.userMs() / ms).as("split in the ticks' proportion")
                .isCloseTo(delta.utime() / (double) (delta.utime() + delta.stime()), within(1e-9));
        assertThat(mx.isCurrentThreadCpuTimeSupported()).isTrue();
    }

    @Test
    void enoughTicksOrAThreadThatEndedKeepTheTicks() {
        ThreadSchedules one = new ThreadSchedules(Map.of(1L, new ThreadSchedules.Counts(1_000_000, 0, 0),
                2L, new ThreadSchedules.Counts(1_000_000, 0, 0)));
        ThreadSchedules later = new ThreadSchedules(Map.of(1L, new ThreadSchedules.Counts(1_500_000_000L, 0, 0),
                2L, new ThreadSchedules.Counts(2_000_000, 0, 0)));
        ProcStat whole = new ProcStat(1000, 500, 0, 0, 2);
        assertThat(ServerCpuTime.of(new ProcStat(150, 50, 0, 0, 2), whole, reading(one), reading(later)).clock())
                .as("200 ticks suffice").isEqualTo(StepRecord.ServerSide.TICKS);
        ServerCpuTime fine = ServerCpuTime.of(new ProcStat(120, 30, 0, 0, 2), whole, reading(one), reading(later));
        assertThat(fine.clock()).isEqualTo(StepRecord.ServerSide.SCHEDSTAT);
        assertThat(fine.userMs() + fine.sysMs()).isCloseTo(1_500, within(1e-6));
        assertThat(fine.userMs()).isCloseTo(1_200, within(1e-6));
        ThreadSchedules ended = new ThreadSchedules(Map.of(1L, new ThreadSchedules.Counts(1_500_000_000L, 0, 0)));
        assertThat(ServerCpuTime.of(new ProcStat(120, 30, 0, 0, 2), whole, reading(one), reading(ended)).clock())
                .as("thread 2 took its time with it").isEqualTo(StepRecord.ServerSide.TICKS);
        assertThat(ServerCpuTime.of(new ProcStat(120, 30, 0, 0, 2), whole, null, reading(later)).clock())
                .as("no reading before the window").isEqualTo(StepRecord.ServerSide.TICKS);
        ServerCpuTime noTicks = ServerCpuTime.of(new ProcStat(0, 0, 0, 0, 2), whole, reading(one), reading(later));
        assertThat(noTicks.userMs() / (noTicks.userMs() + noTicks.sysMs())).as("the process's lifetime split: 1000 of 1500")
                .isCloseTo(2 / 3.0, within(1e-9));
    }

    private static SaturationReading reading(ThreadSchedules threads) {
        return new SaturationReading(threads, new TcpCounters(0, 0, 0), 1, Optional.empty(), Double.NaN, 0);
    }

    /** Spins this thread for {@code nanos} of its own CPU time; returns the CPU time it used. */
    private static long spin(long nanos) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long start = mx.getCurrentThreadCpuTime();
        long x = 0;
        while (mx.getCurrentThreadCpuTime() - start < nanos) {
            for (int i = 0; i < 10_000; i++) {
                x += i * 31L ^ x;
            }
        }
        if (x == 42) {
            System.out.print("");
        }
        return mx.getCurrentThreadCpuTime() - start;
    }
}
