package org.testbed.runner.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.testbed.driver.ErrorKind;
import org.testbed.driver.ErrorSeconds;
import org.testbed.runfolder.figure.Figure;

class FaultCostTest {
    private static final double N = Double.NaN;
    private static final double[] RPS = {1000, 1000, 1000, 200, 0, 900, 1000, 1000};
    private static final double[] P99 = {10, 10, 10, 500, N, 10, 10, 10};

    /** Counts by kind (STATUS, TIMEOUT, CONNECTION, WRONG_ANSWER, OTHER) and second. */
    private static ErrorSeconds errors(long[] status, long[] timeouts, long[] connection, long[] wrong) {
        return ErrorSeconds.of(new long[][] {status, timeouts, connection, wrong, new long[status.length]});
    }

    @Test
    void countsEachKindFromTheFaultsStartUntilBack() {
        // 503s in the stall's seconds, timeouts at its end, one 503 before it and one after the window was back: not the fault's.
        ErrorSeconds counted = errors(new long[] {1, 0, 0, 300, 700, 0, 0, 2}, new long[] {0, 0, 0, 0, 5, 0, 0, 0},
                new long[] {0, 0, 0, 0, 2, 1, 0, 0}, new long[8]);
        FaultProbe.Cost cost = FaultProbe.Cost.of(RPS, P99, counted, new FaultTimes(3.01, 5.0));
        Map<Figure, Double> f = cost.figures();
        assertThat(f).containsEntry(Figure.RECOVERY, 0.0).containsEntry(Figure.UNRECOVERED, 0.0)
                .containsEntry(Figure.FAULT_STATUS, 1000.0).containsEntry(Figure.FAULT_TIMEOUTS, 5.0)
                .containsEntry(Figure.FAULT_CONNECTION, 2.0);
    }

    @Test
    void aFaultWithoutErrorsCountsNone() {
        ErrorSeconds none = errors(new long[8], new long[8], new long[8], new long[8]);
        Map<Figure, Double> f = FaultProbe.Cost.of(RPS, P99, none, new FaultTimes(3.0, 5.0)).figures();
        assertThat(f).containsEntry(Figure.FAULT_STATUS, 0.0).containsEntry(Figure.FAULT_TIMEOUTS, 0.0)
                .containsEntry(Figure.FAULT_CONNECTION, 0.0).containsEntry(Figure.RECOVERY, 0.0);
    }

    @Test
    void neverBackLeavesTheRecoveryEmptyAndCountsToTheWindowsEnd() {
        double[] rps = {1000, 1000, 1000, 0, 0, 100, 100, 100};
        double[] p99 = {10, 10, 10, N, N, 900, 900, 900};
        ErrorSeconds counted = errors(new long[] {0, 0, 0, 10, 10, 10, 10, 10}, new long[8], new long[8], new long[8]);
        Map<Figure, Double> f = FaultProbe.Cost.of(rps, p99, counted, new FaultTimes(3.0, 5.0)).figures();
        assertThat(f).doesNotContainKey(Figure.RECOVERY).containsEntry(Figure.UNRECOVERED, 1.0)
                .containsEntry(Figure.FAULT_STATUS, 50.0);
    }

    @Test
    void twoFaultsAddTheirErrorsAndKeepTheLongerRecovery() {
        ErrorSeconds none = errors(new long[8], new long[8], new long[8], new long[8]);
        FaultProbe.Cost quick = FaultProbe.Cost.of(RPS, P99, none, new FaultTimes(3.0, 5.0));
        double[] slowRps = {1000, 1000, 1000, 0, 0, 500, 600, 1000};
        FaultProbe.Cost slow = FaultProbe.Cost.of(slowRps, P99, none, new FaultTimes(3.0, 5.0));
        assertThat(FaultProbe.Cost.none().and(quick).and(slow).figures()).containsEntry(Figure.RECOVERY, 2.0);
        assertThat(FaultProbe.Cost.none().and(slow).and(quick).figures()).containsEntry(Figure.RECOVERY, 2.0);
        assertThat(ErrorKind.values()).hasSize(5);
    }
}
