package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runner.proc.MachineSpeed;

class MachineCommandTest {

    @Test
    void aMachineSlowAThirdOfTheTimeOnOneCpuIsCalledNotSteadyWithItsFigures() {
        long[] slow = new long[30];
        Arrays.fill(slow, 10_000_000);
        Arrays.fill(slow, 10, 20, 17_400_000);
        long[] steady = new long[30];
        Arrays.fill(steady, 10_000_000);
        String verdict = MachineCommand.verdict(List.of(MachineSpeed.Summary.of(steady), MachineSpeed.Summary.of(slow)),
                Duration.ofMillis(200));
        assertThat(verdict).startsWith("machine: NOT STEADY. the slowest probe at 0.57 of its CPU's fastest tenth,")
                .contains("under 0.9 in 33 % of the probes of the worst CPU").contains("a run here measures that too");
    }

    @Test
    void aSteadyMachineIsSaidSteady() {
        long[] probes = new long[30];
        Arrays.fill(probes, 10_000_000);
        probes[7] = 11_300_000;
        assertThat(MachineCommand.verdict(List.of(MachineSpeed.Summary.of(probes)), Duration.ofMillis(200)))
                .startsWith("machine: steady. the slowest probe at 0.88 of its CPU's fastest tenth")
                .contains("under 0.9 in 3 % of the probes of the worst CPU.");
    }

    @Test
    void eachCpuSaysHowLongItRanSlowInARow() {
        long[] probes = new long[30];
        Arrays.fill(probes, 10_000_000);
        Arrays.fill(probes, 5, 10, 12_000_000);
        assertThat(MachineCommand.figures(MachineSpeed.Summary.of(probes), Duration.ofMillis(200)))
                .contains("under 0.9 in 17 % of 30 probes, at most 1.0 s in a row");
    }

    @Test
    void aValidationRowGivesTheLoopsScatterAndItsShareUnderTheThreshold() {
        long[] probes = {10_000_000, 10_100_000, 9_900_000, 10_000_000, 10_050_000, 9_950_000, 10_000_000, 10_000_000,
                10_000_000, 10_000_000};
        assertThat(MachineCommand.validationRow(10, MachineSpeed.Summary.of(probes))).matches("\\| 10 ms \\| 0\\.[0-9] % \\| 0 % \\| 0\\.99 \\| 0\\.98 \\|");
        assertThat(MachineCommand.validationRow(0.3, MachineSpeed.Summary.of(probes))).startsWith("| 0.3 ms |");
    }
}
