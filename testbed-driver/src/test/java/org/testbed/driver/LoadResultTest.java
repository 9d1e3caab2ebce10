package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.testbed.driver.LoadResult.ClientLatency;
import org.testbed.driver.LoadResult.Throughput;
import org.testbed.driver.LoadResult.TransportCounts;

class LoadResultTest {
    private static final Latency L = new Latency(1, 2, 3, 4, 5);

    @Test
    void windowRpsDividesALastPartialWindowByItsLength() {
        LoadResult r = closedModel("d", new Throughput(250, 0, 2.5, new long[] {100, 110, 40}));
        assertThat(r.windowRps()).containsExactly(100.0, 110.0, 80.0);
        assertThat(r.rps()).isEqualTo(100.0);
    }

    @Test
    void perSecondCannotBeChangedFromOutside() {
        long[] counts = {1, 2};
        LoadResult r = closedModel("d", new Throughput(3, 0, 2, counts));
        counts[0] = 99;
        r.perSecond()[1] = 99;
        assertThat(r.perSecond()).containsExactly(1, 2);
        assertThat(r).isEqualTo(closedModel("d", new Throughput(3, 0, 2, new long[] {1, 2})));
    }

    @Test
    void aResultWithoutWindowsOrScheduleIsAClosedModelOne() {
        LoadResult r = closedModel("wrk", new Throughput(10, 0, 1, new long[0]));
        assertThat(r.perSecond()).isEmpty();
        assertThat(r.windowRps()).isEmpty();
        assertThat(r.uncorrected()).isEqualTo(L);
        assertThat(r.scheduleLagP99Ms()).isZero();
        assertThat(r.scheduleLagMaxMs()).isZero();
    }

    @Test
    void aDriverThatGivesTotalsOnlyHasNoOperationsAndNoIntervals() {
        LoadResult r = closedModel("wrk", new Throughput(10, 0, 1, new long[0]));
        assertThat(r.operations()).isEmpty();
        assertThat(r.intervals()).isSameAs(IntervalLog.NONE);
        assertThat(r.intervals().isEmpty()).isTrue();
    }

    /** A closed-model result at latency {@link #L}, 10 ms of driver CPU and 4 connections, as wrk's are built. */
    private static LoadResult closedModel(String driver, Throughput throughput) {
        return new LoadResult(driver, throughput, ClientLatency.closedModel(L), 10, 4, TransportCounts.NONE, "");
    }
}
