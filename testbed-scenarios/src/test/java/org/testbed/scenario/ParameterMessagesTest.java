package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A workload parameter the library refuses says which parameter, the value and what is allowed. */
class ParameterMessagesTest {
    private static final KeySpace KEYS = new KeySpace("r1", "i0");

    @Test
    void mix() {
        assertThatThrownBy(() -> Mix.parse("80:20")).isInstanceOf(InvalidParameterException.class)
                .hasMessage("mix '80:20' must be GET:POST:PUT:DELETE weights, numbers >= 0 and not all 0, e.g. 80:10:5:5");
        assertThatThrownBy(() -> Mix.parse("0:0:0:0")).hasMessageStartingWith("mix '0:0:0:0' must be GET:POST:PUT:DELETE weights");
        assertThatThrownBy(() -> Mix.parse("-1:1:1:1")).hasMessageStartingWith("mix '-1:1:1:1' must be");
        assertThatThrownBy(() -> Mix.parse("NaN:1:1:1")).hasMessageStartingWith("mix 'NaN:1:1:1' must be");
    }

    @Test
    void workloadNameAndSettings() {
        Workload.Settings ok = Workload.Settings.defaults(KEYS);
        assertThatThrownBy(() -> Workload.of("mixed", ok))
                .hasMessage("workload 'mixed' must be one of journey, mix, plaintext, json, delay");
        assertThatThrownBy(() -> new Workload.Settings(KEYS, 42, 100, 0, Mix.READ_HEAVY, 150))
                .hasMessage("preloadKeys 0 must be a whole number, at least 1");
        assertThatThrownBy(() -> new Workload.Settings(KEYS, 42, 100, 1000, Mix.READ_HEAVY, 10_001))
                .hasMessage("delayMs 10001 must be 0..10000 (milliseconds)");
        assertThatThrownBy(() -> new Workload.Settings(KEYS, 42, 70_000, 1000, Mix.READ_HEAVY, 150))
                .hasMessageStartingWith("payloadSize 70000 must be a size from 0 to 61440 bytes");
    }

    @Test
    void keySpaceParts() {
        assertThatThrownBy(() -> new KeySpace("r.1", "i0")).isInstanceOf(InvalidParameterException.class)
                .hasMessage("runId 'r.1' must be 1..48 characters of [A-Za-z0-9_~-] (no dot: dots separate the parts of a key)");
        assertThatThrownBy(() -> new KeySpace("r1", "")).hasMessageStartingWith("injectorId '' must be 1..48 characters");
    }
}
