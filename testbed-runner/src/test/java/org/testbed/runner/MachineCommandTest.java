package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.testbed.runner.proc.MachineSpeed;

class MachineCommandTest {

    @Test
    void aMachineSlowAThirdOfTheTimeIsCalledNotSteadyWithItsFigures() {
        long[] probes = new long[30];
        Arrays.fill(probes, 300_000);
        Arrays.fill(probes, 10, 20, 520_000);
        String verdict = MachineCommand.verdict(MachineSpeed.Summary.of(probes), Duration.ofMillis(100));
        assertThat(verdict).startsWith("machine: NOT STEADY. speed relative to the fastest tenth of the probes: median 1.00,"
                + " slowest 0.58; under 0.9 in 33 % of the probes, at most 1.0 s in a row.").contains("a run here measures that too");
    }

    @Test
    void aSteadyMachineIsSaidSteady() {
        long[] probes = new long[30];
        Arrays.fill(probes, 300_000);
        probes[7] = 340_000;
        assertThat(MachineCommand.verdict(MachineSpeed.Summary.of(probes), Duration.ofMillis(100)))
                .startsWith("machine: steady. speed relative to the fastest tenth of the probes: median 1.00, slowest 0.88;"
                        + " under 0.9 in 3 % of the probes, at most 0.1 s in a row.");
    }
}
