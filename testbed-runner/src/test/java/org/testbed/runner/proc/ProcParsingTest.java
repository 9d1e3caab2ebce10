package org.testbed.runner.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProcParsingTest {

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
    }

    @Test
    void differenceIsFieldByField() {
        ProcStat before = new ProcStat(100, 20, 5, 1);
        ProcStat after = new ProcStat(350, 70, 6, 3);
        assertThat(after.minus(before)).isEqualTo(new ProcStat(250, 50, 1, 2));
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
    void statusGivesResidentSetSizeInKilobytes() throws Exception {
        String status = "Name:\tjava\nVmPeak:\t 9148297 kB\nVmHWM:\t  210412 kB\nVmRSS:\t  209000 kB\nThreads:\t37\n";
        ProcStatus parsed = ProcStatus.parse(status);
        assertThat(parsed.vmRssKb()).isEqualTo(209000);
        assertThat(parsed.vmHwmKb()).isEqualTo(210412);
        assertThat(parsed.rssMb()).isEqualTo(209000 / 1024.0);
        assertThat(ProcStatus.read(ProcessHandle.current().pid()).vmRssKb()).isPositive();
    }

    @Test
    void clockTicksComeFromGetconf() {
        assertThat(ClockTicks.perSecond()).isPositive();
        assertThat(ClockTicks.toMillis(ClockTicks.perSecond())).isEqualTo(1000.0);
    }

    @Test
    void gcCountersOfThisJvmFromItsPerfDataFile() throws Exception {
        Path file = GcCounters.perfDataFile(ProcessHandle.current().pid());
        assertThat(file).as("hsperfdata file of this JVM").isNotNull();
        assertThat(Files.size(file)).isPositive();
        GcCounters before = GcCounters.fromPerfData(file);
        System.gc();
        GcCounters after = GcCounters.fromPerfData(file);
        assertThat(before.source()).isEqualTo("hsperfdata");
        assertThat(after.count()).isGreaterThan(before.count());
        assertThat(after.millis()).isGreaterThanOrEqualTo(before.millis());
        assertThat(GcCounters.read(ProcessHandle.current().pid(), null).count()).isGreaterThanOrEqualTo(after.count());
    }

    @Test
    void perCpuBusyStealAndProcessShares() {
        CpuTimes before = CpuTimes.parse("cpu  10 0 10 100 0 0 0 0 0 0\ncpu0 100 0 50 1000 10 0 5 0 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\n");
        // cpu0: +60 user, +20 system, +10 idle, +0 iowait, +5 softirq, +5 steal = 100 ticks
        CpuTimes after = CpuTimes.parse("cpu  10 0 10 100 0 0 0 0 0 0\ncpu0 160 0 70 1010 10 0 10 5 0 0\ncpu1 0 0 0 100 0 0 0 0 0 0\n");
        assertThat(after.busyPct(before, java.util.List.of(0))).isEqualTo(85.0);
        assertThat(after.processBusyPct(before, java.util.List.of(0))).isEqualTo(80.0);
        assertThat(after.stealPct(before, java.util.List.of(0))).isEqualTo(5.0);
        assertThat(after.busyPct(before, java.util.List.of(0, 1))).isEqualTo(85.0 * 100 / 200);
    }

    @Test
    void jstatOutputIsTheFallback() throws Exception {
        String out = "    S0C         S1C         S0U         S1U          EC          EU          OC          OU"
                + "          MC          MU        CCSC        CCSU       YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT   \n"
                + "        0.0         0.0         0.0         0.0     45056.0      4096.0    990208.0     12288.0"
                + "     30784.0     30388.3      4224.0      4040.6         7     0.043     1     0.021     2     0.004     0.068\n";
        GcCounters gc = GcCounters.parseJstat(out);
        assertThat(gc.count()).isEqualTo(10);
        assertThat(gc.millis()).isEqualTo(68.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(gc.source()).isEqualTo("jstat");
    }
}
