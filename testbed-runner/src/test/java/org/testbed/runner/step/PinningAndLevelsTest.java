package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Conditions;
import org.testbed.driver.Level;

class PinningAndLevelsTest {

    @Test
    void defaultSplitGivesTheServerTheFirstHalfAndEverythingElseTheRest() {
        Pinning two = Pinning.decide(null, null, null, List.of(0, 1), true);
        assertThat(two).isEqualTo(new Pinning("0", "1", "1"));
        Pinning four = Pinning.decide(null, null, null, List.of(0, 1, 2, 3), true);
        assertThat(four).isEqualTo(new Pinning("0,1", "2,3", "2,3"));
        assertThat(Pinning.decide(null, null, null, List.of(0), true)).isEqualTo(Pinning.NONE);
        assertThat(Pinning.decide("", "", null, List.of(0, 1), true)).isEqualTo(Pinning.NONE);
        assertThat(Pinning.decide("0", "1", "0", List.of(0, 1), true).memcachedCpus()).isEqualTo("0");
        assertThat(Pinning.decide(null, null, null, List.of(0, 1), false)).isEqualTo(Pinning.NONE);
    }

    @Test
    void cpuListsParseLikeTaskset() {
        assertThat(Pinning.parse("0-2,5")).containsExactly(0, 1, 2, 5);
        assertThat(new Pinning("0", "1-3", "1").loadCpuCount()).isEqualTo(3);
        assertThatThrownBy(() -> Pinning.parse("a")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void levelsFromRangesAndLists() {
        List<Level> staircase = Levels.concurrency("50:1100:50");
        assertThat(staircase).hasSize(22);
        assertThat(staircase.get(0)).isEqualTo(Level.closed(50));
        assertThat(staircase.get(21)).isEqualTo(Level.closed(1100));
        assertThat(Levels.concurrency("8,64,256")).containsExactly(Level.closed(8), Level.closed(64), Level.closed(256));
        assertThat(Levels.rate("1000:5000:1000")).extracting(Level::rate).containsExactly(1000.0, 2000.0, 3000.0, 4000.0, 5000.0);
        assertThatThrownBy(() -> Levels.concurrency("0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Levels.concurrency("5:1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void durations() {
        assertThat(Levels.duration("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Levels.duration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Levels.duration("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Levels.duration("2")).isEqualTo(Duration.ofSeconds(2));
        assertThatThrownBy(() -> Levels.duration("soon")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void profilesMatchTheirPromises() {
        Profile seed = Profile.SEED;
        assertThat(seed.warmup()).isEqualTo(Duration.ofSeconds(300));
        assertThat(seed.duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(seed.scenarios().get("mix")).hasSize(22);
        assertThat(seed.scenarios().get("delay")).containsExactly(Level.open(5000));
        assertThat(Profile.of("default")).isEqualTo(Profile.DEFAULT);
    }

    @Test
    void theStudyProfilesCarryTheirStudysConditions() {
        assertThat(Profile.of("https").conditions()).extracting(Conditions::label).containsExactly("plain", "tls");
        assertThat(Profile.of("https").scenarios().get("mix")).containsExactly(Level.closed(96));
        assertThat(Profile.of("gzip-sla").conditions()).extracting(Conditions::label).containsExactly("tls+gzip");
        assertThat(Profile.of("gzip-sla").sla()).isEqualTo("p99<=5ms");
        assertThat(Profile.of("gzip-sla").payloadSize()).isEqualTo(10_240);
        assertThat(Profile.of("metrics-cost").conditions()).extracting(Conditions::label).containsExactly("plain", "metrics");
        assertThat(Profile.of("delay").scenarios().get("delay")).containsExactly(Level.open(5000));
        assertThat(Profile.of("staircase").scenarios().get("mix")).hasSize(22);
        assertThat(Profile.DEFAULT.conditions()).containsExactly(Conditions.PLAIN);
        for (Profile p : Profile.values()) {
            assertThat(Profile.of(p.label())).isEqualTo(p);
        }
        assertThatThrownBy(() -> Profile.of("nope")).hasMessageContaining("gzip-sla, metrics-cost");
    }

    @Test
    void warmUpComesAtTheUsersOfTheFirstLevelWithinBounds() {
        assertThat(VariantSession.warmUpUsers(Levels.concurrency("64"))).isEqualTo(64);
        // The delay scenario's 400 users: the first window must not be where a sync server grows its pool.
        assertThat(VariantSession.warmUpUsers(Levels.concurrency("400"))).isEqualTo(400);
        // A staircase warms up as its first step comes, not at its top.
        assertThat(VariantSession.warmUpUsers(Levels.concurrency("50:1100:50"))).isEqualTo(50);
        assertThat(VariantSession.warmUpUsers(Levels.concurrency("1000"))).isEqualTo(400);
        assertThat(VariantSession.warmUpUsers(Levels.rate("5000"))).isEqualTo(64);
    }
}
