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

    @Test
    void aPlantedWorkIsWholeMicrosecondsAfterMetricsAndBeforeTheStore() {
        Conditions work = Conditions.parse("work20us");
        assertThat(work.work()).contains(new PlantedWork(20));
        assertThat(work.label()).isEqualTo("work20us");
        assertThat(work).isEqualTo(Conditions.PLAIN.withWork(new PlantedWork(20))).isNotEqualTo(Conditions.PLAIN);
        assertThat(Conditions.parse("tls+work20us")).isEqualTo(new Conditions(true, false, false).withWork(new PlantedWork(20)));
        Conditions all = new Conditions(true, true, true).withWork(new PlantedWork(500))
                .withStoreLatency(StoreLatency.ofMillis(10)).withFaults(List.of(FaultSpec.parse("stall:5s+2s")));
        assertThat(all.label()).isEqualTo("tls+gzip+metrics+work500us+store10ms+stall5s+2s");
        assertThat(Conditions.parse("stall5s+2s+store10ms+work500us+metrics+gzip+tls")).as("any order reads").isEqualTo(all);
        for (Conditions c : new Conditions[] {work, all, all.withoutStoreLatency(), Conditions.parse("work100000us")}) {
            assertThat(Conditions.parse(c.label())).isEqualTo(c);
        }
        assertThat(all.withoutStoreLatency().work()).as("the store's distance is replaced, not the work").isPresent();
        assertThat(Conditions.PLAIN.work()).isEmpty();
    }

    @Test
    void aPlantedWorkOtherThanWholeMicrosecondsInRangeIsRefusedSayingTheForm() {
        for (String bad : new String[] {"work-5us", "workabc", "work", "work20", "work20ms", "work1.5us", "work5s", "work 5us"}) {
            assertThatThrownBy(() -> Conditions.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a planted work is whole microseconds of CPU per item request, written work20us (1 to 100000);"
                            + " not '" + bad + "'");
        }
        for (String bad : new String[] {"work0us", "work100001us", "work999999us"}) {
            assertThatThrownBy(() -> Conditions.parse("tls+" + bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1 to 100000 microseconds").hasMessageContaining("'" + bad + "'");
        }
        assertThatThrownBy(() -> Conditions.parse("work20us+work30us")).hasMessageContaining("a second planted work 'work30us'");
        assertThatThrownBy(() -> new PlantedWork(0)).hasMessageContaining("1 to 100000");
        assertThatThrownBy(() -> Conditions.parse("tls+fast")).hasMessageContaining("one planted work (work20us)");
    }
}
