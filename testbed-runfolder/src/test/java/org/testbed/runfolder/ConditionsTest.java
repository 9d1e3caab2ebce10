package org.testbed.runfolder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConditionsTest {
    @Test
    void aStoreLatencyIsWrittenInMillisecondsWithItsJitter() {
        assertThat(StoreLatency.parse("10ms")).isEqualTo(StoreLatency.ofMillis(10));
        StoreLatency jittered = new StoreLatency(Duration.ofMillis(10), Duration.ofMillis(2));
        assertThat(StoreLatency.parse("10ms±2ms")).isEqualTo(jittered);
        assertThat(StoreLatency.parse(" 10ms+-2ms ")).isEqualTo(jittered);
        assertThat(StoreLatency.parse("10ms~2ms")).isEqualTo(jittered);
        assertThat(jittered.label()).isEqualTo("store10ms~2ms");
        assertThat(jittered.describe()).isEqualTo("10 ± 2 ms");
        assertThat(StoreLatency.ofMillis(0).label()).isEqualTo("store0ms");
    }

    @Test
    void aStoreLatencyOtherThanWholeMillisecondsIsRefusedSayingTheForm() {
        for (String bad : new String[] {"10", "10 ms", "1.5ms", "10s", "-1ms", "10ms±", "ms"}) {
            assertThatThrownBy(() -> StoreLatency.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("10ms±2ms");
        }
        assertThatThrownBy(() -> StoreLatency.parse("2ms±5ms")).hasMessageContaining("larger than the latency");
    }

    @Test
    void theStoreLatencyComesLastInTheFieldAndReadsBack() {
        Conditions store = Conditions.PLAIN.withStoreLatency(StoreLatency.ofMillis(10));
        assertThat(store.label()).isEqualTo("store10ms");
        Conditions all = new Conditions(true, true, true, Optional.of(new StoreLatency(Duration.ofMillis(50), Duration.ofMillis(5))), List.of());
        assertThat(all.label()).isEqualTo("tls+gzip+metrics+store50ms~5ms");
        for (Conditions c : new Conditions[] {store, all, Conditions.PLAIN, new Conditions(true, false, false)}) {
            assertThat(Conditions.parse(c.label())).isEqualTo(c);
        }
        assertThat(Conditions.parse("store10ms±2ms").label()).isEqualTo("store10ms~2ms");
        assertThat(all.withoutStoreLatency()).isEqualTo(new Conditions(true, true, true));
    }

    @Test
    void anUnknownConditionOrASecondStoreLatencyIsRefused() {
        assertThatThrownBy(() -> Conditions.parse("tls+fast")).hasMessageContaining("unknown condition 'fast'");
        assertThatThrownBy(() -> Conditions.parse("store2ms+store10ms")).hasMessageContaining("unknown condition 'store10ms'");
        assertThatThrownBy(() -> Conditions.parse("storage")).hasMessageContaining("store10ms");
    }
}
