package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.testbed.driver.LoadResult.OperationFigures;
import org.testbed.scenario.Mix;

/** What a wrk step reports, from the summary line its script prints in {@code done()}. */
class WrkDriverTest {
    /** wrk's output for a step, as the generated script ends it. */
    private static final String OUTPUT = """
            Running 2s test @ http://127.0.0.1:8080
              2 threads and 16 connections
            testbed-wrk requests=20000 errors=4 rps=10000.00 p50_ms=1.250 p90_ms=2.500 p99_ms=4.750 p999_ms=9.000 max_ms=12.125
            """;

    @Test
    void aMixHasNoFiguresPerOperationAndSaysWhy() {
        LoadResult r = WrkDriver.result(PlaintextServer.mix(new Mix(80, 10, 5, 5)), OUTPUT, 2, 16, 30, "raw");
        assertThat(r.requests()).isEqualTo(20000);
        assertThat(r.errors()).isEqualTo(4);
        assertThat(r.latency().p99()).isEqualTo(4.75);
        assertThat(r.operations()).isEmpty();
        assertThat(r.operationsUnavailable()).isEqualTo("wrk keeps one latency histogram for all requests");
    }

    @Test
    void aSingleRouteIsOneOperationWithTheStepsFigures() {
        LoadResult r = WrkDriver.result(PlaintextServer.plaintext(), OUTPUT, 2, 16, 30, "raw");
        assertThat(r.operationsUnavailable()).isEmpty();
        assertThat(r.operations()).containsExactly(new OperationFigures("plaintext", 20000, 4, 10000.0, r.latency()));
    }

    @Test
    void theRequestsInFlightWhenWrkStoppedAreUnfinishedNotErrors() {
        LoadResult r = WrkDriver.result(PlaintextServer.plaintext(), OUTPUT.replace("max_ms=12.125", "max_ms=12.125 unfinished=3"),
                2, 16, 30, "raw");
        assertThat(r.unfinished()).isEqualTo(3);
        assertThat(r.errors()).isEqualTo(4);
        assertThat(WrkDriver.result(PlaintextServer.plaintext(), OUTPUT, 2, 16, 30, "raw").unfinished())
                .as("a script of before the count").isZero();
        assertThat(WrkDriver.result(PlaintextServer.plaintext(), OUTPUT.replace("max_ms=12.125", "max_ms=12.125 unfinished=99"),
                2, 16, 30, "raw").unfinished()).as("at most one a connection").isEqualTo(16);
    }

    @Test
    void outputWithoutTheSummaryLineIsRefusedWithTheOutput() {
        assertThatThrownBy(() -> WrkDriver.result(PlaintextServer.plaintext(), "unable to connect", 2, 16, 30, "raw"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unable to connect");
    }
}
