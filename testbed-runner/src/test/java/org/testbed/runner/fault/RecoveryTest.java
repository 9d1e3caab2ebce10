package org.testbed.runner.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RecoveryTest {
    private static final double N = Double.NaN;

    @Test
    void backAtTheFirstWholeSecondWithinTenPercentAfterTheFaultsEnd() {
        // 5 s of 1000 req/s at 10 ms, a stall from 5.02 to 7.01 s, then two seconds of catching up.
        double[] rps = {1000, 980, 1010, 1000, 990, 300, 0, 200, 850, 950, 1000, 1000};
        double[] p99 = {10, 11, 10, 10, 10, 900, N, 2100, 40, 10.5, 10, 10};
        Recovery r = Recovery.of(rps, p99, new FaultTimes(5.02, 7.01));
        assertThat(r.baselineRps()).isEqualTo(1000);
        assertThat(r.baselineP99Ms()).isEqualTo(10);
        // Second 8 still short of 900 req/s and 11 ms; second 9 is back: one whole second after the fault's (rounded up) end.
        assertThat(r.firstBack()).hasValue(9);
        assertThat(r.seconds()).hasValue(1);
        assertThat(r.recovered()).isTrue();
    }

    @Test
    void backAtOnceIsZeroSeconds() {
        double[] rps = {500, 500, 500, 500, 500, 500};
        double[] p99 = {5, 5, 5, 5, 5, 5};
        Recovery r = Recovery.of(rps, p99, new FaultTimes(2.0, 3.0));
        assertThat(r.firstBack()).hasValue(3);
        assertThat(r.seconds()).hasValue(0);
    }

    @Test
    void fasterThanBeforeCountsAsBack() {
        double[] rps = {500, 500, 0, 700, 500};
        double[] p99 = {5, 5, N, 3, 5};
        assertThat(Recovery.of(rps, p99, new FaultTimes(2.0, 3.0)).firstBack()).hasValue(3);
    }

    @Test
    void neverBackWithinTheWindowIsNotRecovered() {
        double[] rps = {1000, 1000, 1000, 0, 0, 400, 600, 800};
        double[] p99 = {10, 10, 10, N, N, 50, 30, 12};
        Recovery r = Recovery.of(rps, p99, new FaultTimes(3.0, 5.0));
        assertThat(r.recovered()).isFalse();
        assertThat(r.firstBack()).isEmpty();
        assertThat(r.seconds()).isEmpty();
    }

    @Test
    void aSlowTailAloneKeepsItFromBeingBack() {
        double[] rps = {1000, 1000, 0, 1000, 1000, 1000};
        double[] p99 = {10, 10, N, 20, 11.5, 10.9};
        assertThat(Recovery.of(rps, p99, new FaultTimes(2.0, 3.0)).firstBack()).hasValue(5);
    }

    @Test
    void needsAWholeSecondBeforeTheFault() {
        assertThatThrownBy(() -> Recovery.of(new double[] {1, 1, 1}, new double[] {1, 1, 1}, new FaultTimes(0.5, 1.5)))
                .hasMessageContaining("before the fault");
    }
}
