package org.testbed.toxiproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToxicTest {
    @Test
    void latencyDelaysTheRepliesInMilliseconds() {
        Toxic latency = Toxic.latency(Duration.ofMillis(10), Duration.ofMillis(2));

        assertThat(latency).isEqualTo(new Toxic("latency_downstream", "latency", "downstream", 1.0,
                Map.of("latency", 10L, "jitter", 2L)));
    }

    @Test
    void faultsAreNamedAfterTheirTypeSoTheyCanBeRemoved() {
        assertThat(Toxic.timeout(Duration.ZERO).name()).isEqualTo("timeout_downstream");
        assertThat(Toxic.resetPeer(Duration.ofSeconds(1)).attributes()).containsEntry("timeout", 1000L);
        assertThat(Toxic.of("bandwidth", "upstream", Map.of("rate", 100L)).name()).isEqualTo("bandwidth_upstream");
    }

    @Test
    void refusesAStreamOrToxicityTheApiWouldRefuse() {
        assertThatThrownBy(() -> Toxic.of("latency", "both", Map.of())).hasMessageContaining("downstream or upstream");
        assertThatThrownBy(() -> new Toxic("half", "latency", "downstream", 1.5, Map.of())).hasMessageContaining("between 0 and 1");
    }
}
