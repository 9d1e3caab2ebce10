package org.testbed.runner.proc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProcParsingTest {

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
