package org.testbed.driver.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The driver's own CPU account: /proc/PID/stat and the clock tick it counts in. */
class ProcStatTest {

    // A real line from a JVM; the command name holds spaces and parentheses on purpose.
    private static final String STAT = "4242 (java (C2) x) S 1 4242 4242 0 -1 4194560 91823 0 12 0 "
            + "1234 567 89 10 20 0 37 0 1543210 9148297216 52311 18446744073709551615 1 1 0 0 0 0 4 1 16796925 0 0 0 "
            + "17 1 0 0 0 0 0 0 0 0 0 0 0 0 0";

    @Test
    void readsUserSystemAndChildrenTicksCountingFromTheLastParenthesis() {
        ProcStat stat = ProcStat.parse(STAT);
        assertThat(stat.utime()).isEqualTo(1234);
        assertThat(stat.stime()).isEqualTo(567);
        assertThat(stat.cutime()).isEqualTo(89);
        assertThat(stat.cstime()).isEqualTo(10);
        assertThat(stat.ticks()).isEqualTo(1801);
        assertThat(stat.childTicks()).isEqualTo(99);
        assertThat(stat.threads()).as("field 20, num_threads").isEqualTo(37);
    }

    @Test
    void differenceIsFieldByField() {
        ProcStat before = new ProcStat(100, 20, 5, 1, 30);
        ProcStat after = new ProcStat(350, 70, 6, 3, 37);
        assertThat(after.minus(before)).as("the threads are a count, the later reading's")
                .isEqualTo(new ProcStat(250, 50, 1, 2, 37));
    }

    @Test
    void rejectsWhatIsNotAStatLine() {
        assertThatThrownBy(() -> ProcStat.parse("no parenthesis here")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parse("1 (x) S 1 2")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too few fields");
    }

    @Test
    void readsThisProcessAndCpuTimeGrows() throws Exception {
        ProcStat before = ProcStat.self();
        long spin = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < spin) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        ProcStat after = ProcStat.self();
        assertThat(x).isNotZero();
        assertThat(after.minus(before).ticks()).isPositive();
        assertThat(ProcStat.read(ProcessHandle.current().pid()).utime()).isGreaterThanOrEqualTo(after.utime());
    }

    @Test
    void clockTicksComeFromGetconf() {
        assertThat(ClockTicks.perSecond()).isPositive();
        assertThat(ClockTicks.toMillis(ClockTicks.perSecond())).isEqualTo(1000.0);
    }
}
