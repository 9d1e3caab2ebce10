package org.testbed.runner.counters;

import org.testbed.runfolder.counters.CounterComparison;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.counters.PerfEvent;
import org.testbed.runfolder.counters.CounterReading;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;

class CountersTest {
    private static final ResultRow.StepKey STEP = new ResultRow.StepKey("vertx", "mix", 64, 0, Conditions.PLAIN);

    /** perf stat -x, as this project's reference VM prints it: software events counted, no PMU. */
    private static final String VM = """
            # started on Mon Nov 23 01:55:44 2026

            422.36,msec,task-clock,422358213,100.00,0.439,CPUs utilized
            179,,context-switches,422358213,100.00,423.811,/sec
            0,,cpu-migrations,422358213,100.00,0.000,/sec
            12,,page-faults,422358213,100.00,0.000,/sec
            <not supported>,,cycles,0,100.00,,
            <not supported>,,instructions,0,100.00,,
            <not supported>,,ref-cycles,0,100.00,,
            <not supported>,,branch-misses,0,100.00,,
            <not supported>,,LLC-loads,0,100.00,,
            <not supported>,,LLC-load-misses,0,100.00,,
            """;

    /** The same on a machine with a PMU (multiplexed events are already scaled by perf). */
    private static final String METAL = """
            2000.00,msec,task-clock,2000000000,100.00,1.000,CPUs utilized
            5000,,context-switches,2000000000,100.00,2.500,K/sec
            10,,cpu-migrations,2000000000,100.00,0.005,K/sec
            300,,page-faults,2000000000,100.00,0.150,K/sec
            6000000000,,cycles,1500000000,75.00,3.000,GHz
            9000000000,,instructions,1500000000,75.00,1.50,insn per cycle
            5000000000,,ref-cycles,1500000000,75.00,,
            20000000,,branch-misses,1500000000,75.00,,
            <not counted>,,LLC-loads,0,0.00,,
            40000000,,LLC-load-misses,1500000000,75.00,,
            """;

    @Test
    void aVmWithoutPmuCountsSoftwareEventsAndSaysWhyNotTheRest() {
        CounterReading r = CounterReading.parse(VM, "not supported: no PMU");
        assertThat(r.total(PerfEvent.TASK_CLOCK)).isEqualTo(422.36);
        assertThat(r.total(PerfEvent.CONTEXT_SWITCHES)).isEqualTo(179);
        assertThat(r.has(PerfEvent.CYCLES)).isFalse();
        assertThat(r.unavailableText()).isEqualTo("cycles instructions ref-cycles branch-misses LLC-loads LLC-load-misses: not supported: no PMU");

        CounterRecord c = CounterRecord.of(STEP, 1, 1000, r);
        assertThat(c.perRequest().taskClockMs()).isCloseTo(0.42236, within(1e-9));
        assertThat(c.perRequest().contextSwitches()).isCloseTo(0.179, within(1e-9));
        assertThat(c.perRequest().ipc()).isNaN();
        assertThat(CountersCsv.TABLE.fields(c)).contains("n/a").contains("0.42236").contains("0.179");
    }

    @Test
    void perRequestFiguresAndIpcFromAMachineWithCounters() {
        CounterRecord c = CounterRecord.of(STEP, 2, 100_000, CounterReading.parse(METAL, "unused"));
        assertThat(c.perRequest().cycles()).isEqualTo(60_000);
        assertThat(c.perRequest().instructions()).isEqualTo(90_000);
        assertThat(c.perRequest().ipc()).isEqualTo(1.5);
        assertThat(c.perRequest().ipcPerRefCycle()).isEqualTo(1.8);
        assertThat(c.perRequest().branchMisses()).isEqualTo(200);
        assertThat(c.perRequest().llcLoads()).isNaN();
        assertThat(c.perRequest().llcLoadMisses()).isEqualTo(400);
        assertThat(c.unavailable()).startsWith("LLC-loads: not counted");
    }

    @Test
    void missingPerfMakesEveryEventUnavailableWithOneReason() {
        CounterRecord c = CounterRecord.of(STEP, 1, 10, CounterReading.unavailable(PerfStat.NOT_INSTALLED));
        for (double v : c.figures()) {
            assertThat(v).isNaN();
        }
        assertThat(c.unavailable()).endsWith(": " + PerfStat.NOT_INSTALLED).doesNotContain(";");
    }

    @Test
    void csvRoundTripAndMediansPerStep(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(CountersCsv.FILE);
        CountersCsv.TABLE.create(file);
        for (int i = 1; i <= 3; i++) {
            String perf = METAL.replace("9000000000,,instructions", (8000000000L + i * 1000000000L) + ",,instructions");
            CountersCsv.TABLE.append(file, CounterRecord.of(STEP, i, 100_000, CounterReading.parse(perf, "unused")));
        }
        List<CounterRecord> read = CountersCsv.TABLE.read(file);
        assertThat(read).hasSize(3);
        assertThat(read.get(2).perRequest().instructions()).isEqualTo(110_000);
        List<CounterRecord> medians = CountersCsv.medians(read);
        assertThat(medians).hasSize(1);
        assertThat(medians.get(0).perRequest().instructions()).isEqualTo(100_000);
        assertThat(medians.get(0).perRequest().ipc()).isCloseTo(10.0 / 6, within(1e-4));
        assertThat(medians.get(0).perRequest().llcLoads()).as("n/a in every sample stays n/a").isNaN();
        assertThat(medians.get(0).repeat()).isEqualTo(3);
        assertThat(medians.get(0).requests()).isEqualTo(300_000);
    }

    @Test
    void compareExplainsACpuChangeAsInstructionsTimesIpc() {
        CounterRecord a = CounterRecord.of(STEP, 1, 100_000, CounterReading.parse(METAL, "unused"));
        // B: 1.1x the instructions in 1.375x the cycles, so IPC 0.8x and CPU about 1.375x.
        String metalB = METAL.replace("9000000000,,instructions", "9900000000,,instructions")
                .replace("6000000000,,cycles", "8250000000,,cycles");
        CounterRecord b = CounterRecord.of(STEP, 1, 100_000, CounterReading.parse(metalB, "unused"));
        CounterComparison c = CounterComparison.of(List.of(a), List.of(b), Map.of(STEP, 1.375));
        assertThat(c.steps()).hasSize(1);
        CounterComparison.Step s = c.steps().get(0);
        assertThat(s.ratios().get("instructions_per_req")).isCloseTo(1.1, within(1e-9));
        assertThat(s.ratios().get("ipc")).isCloseTo(0.8, within(1e-9));
        assertThat(s.ratios().get("llc_loads_per_req")).isNaN();
        assertThat(s.explanation()).startsWith("CPU 1.38× = instructions 1.10× at IPC 0.80×");
        assertThat(c.text()).contains("vertx mix c=64: CPU 1.38×");
        assertThat(CounterComparison.of(List.of(a), List.of(), Map.of()).text()).isEmpty();
    }

    /** A real perf attached to this JVM while it burns CPU (software events work without a PMU). */
    @Test
    void perfStatCountsARealProcessOrSaysWhyNot(@TempDir Path dir) throws Exception {
        PerfStat perf = PerfStat.attach(ProcessHandle.current().pid(), dir.resolve("perf.txt"));
        long end = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        CounterReading r = perf.stop();
        assertThat(x).isNotNegative();
        if (PerfStat.find() == null) {
            assertThat(r.unavailableText()).contains(PerfStat.NOT_INSTALLED);
        } else {
            assertThat(r.total(PerfEvent.TASK_CLOCK)).as(r.describe()).isGreaterThan(50);
            for (PerfEvent e : PerfEvent.values()) {
                assertThat(r.has(e) || r.unavailableText().contains(e.perfName())).as(e.perfName()).isTrue();
            }
        }
        assertThat(Files.exists(dir.resolve("perf.txt.err"))).as("an empty error file is not kept").isFalse();
    }
}
