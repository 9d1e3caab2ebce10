package org.testbed.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

/** The planted work of {@code TESTBED_WORK_US}: none at 0, steps in proportion to the µs, the real calibration. */
class CpuWorkTest {
    @Test
    void zeroIsNoWorkAndNoCalibration() {
        CpuWork none = CpuWork.of(0);
        assertThat(none).isSameAs(CpuWork.NONE);
        assertThat(none.on()).isFalse();
        assertThat(none.steps()).isZero();
        assertThat(CpuWork.of(0, 500.0)).isSameAs(CpuWork.NONE);
        none.run(); // returns at once: nothing to assert but that it does
    }

    @Test
    void theStepsScaleWithTheMicroseconds() {
        assertThat(CpuWork.of(1, 500.0).steps()).isEqualTo(500);
        assertThat(CpuWork.of(20, 500.0).steps()).isEqualTo(10_000);
        assertThat(CpuWork.of(2000, 500.0).steps()).isEqualTo(1_000_000);
        assertThat(CpuWork.of(CpuWork.MAX_MICROS, 500.0).steps()).isEqualTo(50_000_000);
        assertThat(CpuWork.of(1, 0.001).steps()).as("at least one step when on").isOne();
        assertThat(CpuWork.of(20, 500.0).micros()).isEqualTo(20);
    }

    @Test
    void aBadAmountIsRefusedSayingTheRange() {
        for (int bad : new int[] {-5, -1, CpuWork.MAX_MICROS + 1}) {
            assertThatThrownBy(() -> CpuWork.of(bad)).as("%d", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--work-us must be a whole number of microseconds from 0 to 100000, not " + bad);
        }
        assertThatThrownBy(() -> CpuWork.of(5, 0.0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> CpuWork.of(5, Double.NaN)).hasMessageContaining("positive");
    }

    @Test
    void theChainIsAXorshiftThatNeverReachesZero() {
        assertThat(CpuWork.chain(0, 1)).isOne();
        // Marsaglia's xorshift64 (13, 7, 17) from 1: its first step.
        assertThat(CpuWork.chain(1, 1)).isEqualTo(((1L ^ (1L << 13)) ^ ((1L ^ (1L << 13)) >>> 7))
                ^ (((1L ^ (1L << 13)) ^ ((1L ^ (1L << 13)) >>> 7)) << 17));
        long x = 1;
        for (int i = 0; i < 100_000; i++) {
            x = CpuWork.chain(1, x);
            assertThat(x).isNotZero();
        }
    }

    /**
     * The calibration is this machine's own: positive, the same object each time it is asked, and a
     * request's work then costs about what it was asked to in the thread's CPU time. Asserted loosely
     * (at least half, and at a lower bound only): a busy machine makes CPU time longer, never
     * shorter, than the fastest timing.
     */
    @Test
    void theCalibratedWorkCostsAtLeastHalfItsMicrosecondsOfThreadCpu() {
        CpuWork.Calibration calibration = CpuWork.calibrated();
        assertThat(calibration.stepsPerMicro()).isPositive();
        assertThat(CpuWork.calibrated()).isSameAs(calibration);

        CpuWork work = CpuWork.of(10_000);
        assertThat(work.steps()).isEqualTo(Math.round(10_000 * calibration.stepsPerMicro()));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        work.run(); // compiled by now (the calibration ran the same loop), but once more for the timing's sake
        long before = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < 10; i++) {
            work.run();
        }
        long tookMicros = (threads.getCurrentThreadCpuTime() - before) / 1000;
        assertThat(tookMicros).as("thread CPU of 10 requests of 10 ms work each, µs").isGreaterThanOrEqualTo(10 * 10_000 / 2);
    }
}
