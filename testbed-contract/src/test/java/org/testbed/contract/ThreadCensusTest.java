package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCensusTest {

    @Test
    void aFamilyIsTheNameWithoutItsTrailingNumber() {
        assertThat(ThreadCensus.family("jetty-sync-42")).isEqualTo("jetty-sync");
        assertThat(ThreadCensus.family("GC Thread#1")).isEqualTo("GC Thread");
        assertThat(ThreadCensus.family("Scheduler-1357924680")).isEqualTo("Scheduler");
        assertThat(ThreadCensus.family("http-nio-0.0.0.")).isEqualTo("http-nio-0.0.0.");
        assertThat(ThreadCensus.family("Memcached IO ov")).isEqualTo("Memcached IO ov");
    }

    @Test
    void aPoolFillingUpIsToldApartFromAThreadLeakedPerFault() {
        ThreadCensus before = new ThreadCensus(Map.of("jetty-sync", 18, "Memcached IO ov", 1, "GC Thread", 2));
        ThreadCensus after = new ThreadCensus(Map.of("jetty-sync", 25, "Memcached IO ov", 1, "GC Thread", 4,
                "Timer", 6));

        assertThat(after.requestPoolThreads()).isEqualTo(25);
        assertThat(after.otherGrowthSince(before)).containsExactly(Map.entry("Timer", 6));
    }

    @Test
    void theLowestOfTwoCensusesKeepsOnlyThreadsSeenInBoth() {
        ThreadCensus first = new ThreadCensus(Map.of("jetty-sync", 20, "Timer", 1));
        ThreadCensus second = new ThreadCensus(Map.of("jetty-sync", 18));

        assertThat(first.lowest(second).families()).containsOnly(Map.entry("jetty-sync", 18), Map.entry("Timer", 0));
    }
}
