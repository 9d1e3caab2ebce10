package org.testbed.runner.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MachineSpeedTest {

    @Test
    void aSlowSpellIsMeasuredAgainstTheFastestTenthOfTheProbes() {
        // 40 probes at full speed (300 µs), then 8 in a row at 0.6 of it (500 µs), then 2 more at full speed.
        long[] probes = new long[50];
        Arrays.fill(probes, 300_000);
        Arrays.fill(probes, 40, 48, 500_000);
        MachineSpeed.Summary s = MachineSpeed.Summary.of(probes);

        assertThat(s.fullSpeedNanos()).isEqualTo(300_000);
        assertThat(s.medianSpeed()).isEqualTo(1.0);
        assertThat(s.slowestSpeed()).isCloseTo(0.6, within(1e-9));
        assertThat(s.slowShare()).isCloseTo(8 / 50.0, within(1e-9));
        assertThat(s.longestSlowSpell()).isEqualTo(8);
        assertThat(s.speedOf(375_000)).isCloseTo(0.8, within(1e-9));
    }

    @Test
    void aSteadyMachineHasNoSlowProbesEvenWithSmallJitter() {
        long[] probes = {300_000, 301_000, 299_000, 305_000, 300_500, 302_000, 298_000, 300_000, 303_000, 301_000};
        MachineSpeed.Summary s = MachineSpeed.Summary.of(probes);
        assertThat(s.slowShare()).isZero();
        assertThat(s.longestSlowSpell()).isZero();
        assertThat(s.slowestSpeed()).isGreaterThan(0.97);
    }

    @Test
    void theCoefficientOfVariationIsTheLoopsScatter() {
        long[] probes = {9_000_000, 11_000_000, 9_000_000, 11_000_000};
        MachineSpeed.Summary s = MachineSpeed.Summary.of(probes);
        // mean 10 ms, sample standard deviation sqrt(4 / 3) ms
        assertThat(s.cvPct()).isCloseTo(100 * Math.sqrt(4.0 / 3) / 10, within(1e-9));
        assertThat(s.probes()).isEqualTo(4);
        assertThat(MachineSpeed.fullSpeedOf(probes)).isEqualTo(9_000_000);
    }

    @Test
    void aLoopOfAnotherLengthScalesItsUnits() {
        assertThat(MachineSpeed.unitsFor(java.time.Duration.ofMillis(3), 10_000_000, 10_000_000)).isEqualTo(3_000_000);
        assertThat(MachineSpeed.unitsFor(java.time.Duration.ofNanos(300_000), 10_000_000, 20_000_000)).isEqualTo(150_000);
    }

    @Test
    void aProbeTakesCpuTimeOnThisThread() {
        MachineSpeed probe = new MachineSpeed(300_000);
        for (int i = 0; i < 50; i++) {
            probe.probeNanos(); // let the JIT compile the loop
        }
        assertThat(probe.probeNanos()).isPositive();
        assertThat(MachineSpeed.work(1000, 7)).as("the same work, the same result").isEqualTo(MachineSpeed.work(1000, 7));
    }
}
