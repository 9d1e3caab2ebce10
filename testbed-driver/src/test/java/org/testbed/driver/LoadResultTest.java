package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LoadResultTest {
    private static final Latency L = new Latency(1, 2, 3, 4, 5);

    @Test
    void windowRpsDividesALastPartialWindowByItsLength() {
        LoadResult r = new LoadResult("d", 250, 0, 2.5, L, 10, 4, "", new long[] {100, 110, 40}, L, 0, 0);
        assertThat(r.windowRps()).containsExactly(100.0, 110.0, 80.0);
        assertThat(r.rps()).isEqualTo(100.0);
    }

    @Test
    void perSecondCannotBeChangedFromOutside() {
        long[] counts = {1, 2};
        LoadResult r = new LoadResult("d", 3, 0, 2, L, 10, 4, "", counts, L, 0, 0);
        counts[0] = 99;
        r.perSecond()[1] = 99;
        assertThat(r.perSecond()).containsExactly(1, 2);
        assertThat(r).isEqualTo(new LoadResult("d", 3, 0, 2, L, 10, 4, "", new long[] {1, 2}, L, 0, 0));
    }

    @Test
    void aResultWithoutWindowsOrScheduleIsAClosedModelOne() {
        LoadResult r = new LoadResult("wrk", 10, 0, 1, L, 10, 4, "");
        assertThat(r.perSecond()).isEmpty();
        assertThat(r.windowRps()).isEmpty();
        assertThat(r.uncorrected()).isEqualTo(L);
        assertThat(r.scheduleLagP99Ms()).isZero();
        assertThat(r.scheduleLagMaxMs()).isZero();
    }
}
