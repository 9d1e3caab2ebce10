package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Conditions;

class ConditionSetsTest {
    @Test
    void withoutTheOptionTheSetsStayAsTheyAre() {
        List<Conditions> sets = List.of(Conditions.PLAIN, Conditions.parse("tls"));
        assertThat(ConditionSets.atStoreLatencies(sets, null)).isSameAs(sets);
        assertThat(ConditionSets.atStoreLatencies(sets, List.of())).isSameAs(sets);
    }

    @Test
    void everySetRunsAtEveryLatencyInTurn() {
        List<Conditions> crossed = ConditionSets.atStoreLatencies(List.of(Conditions.PLAIN, Conditions.parse("tls")),
                List.of("0ms", "10ms+-2ms"));
        assertThat(crossed).extracting(Conditions::label)
                .containsExactly("store0ms", "store10ms~2ms", "tls+store0ms", "tls+store10ms~2ms");
    }

    @Test
    void theOptionReplacesTheLatenciesOfAProfileOrOfConditions() {
        List<Conditions> profile = Profile.STORE_LATENCY.conditions();
        assertThat(profile).extracting(Conditions::label).containsExactly("store0ms", "store2ms", "store10ms", "store50ms");
        assertThat(ConditionSets.atStoreLatencies(profile, List.of("5ms"))).extracting(Conditions::label).containsExactly("store5ms");
    }

    @Test
    void aLatencyNamedTwiceOrMalformedIsRefused() {
        assertThatThrownBy(() -> ConditionSets.atStoreLatencies(List.of(Conditions.PLAIN), List.of("10ms", "10ms")))
                .hasMessageContaining("--store-latency names 10 ms twice");
        assertThatThrownBy(() -> ConditionSets.atStoreLatencies(List.of(Conditions.PLAIN), List.of("10")))
                .hasMessageContaining("whole milliseconds");
    }
}
