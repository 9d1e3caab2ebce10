package org.testbed.runfolder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultSpecTest {

    @Test
    void readsAStallWithItsStartAndLength() {
        FaultSpec stall = FaultSpec.parse("stall:5s+2s");
        assertThat(stall.kind()).isEqualTo(FaultSpec.Kind.STALL);
        assertThat(stall.at()).isEqualTo(Duration.ofSeconds(5));
        assertThat(stall.length()).isEqualTo(Duration.ofSeconds(2));
        assertThat(stall.end()).isEqualTo(Duration.ofSeconds(7));
        assertThat(stall.label()).isEqualTo("stall5s+2s");
        assertThat(stall.spec()).isEqualTo("stall:5s+2s");
    }

    @Test
    void aRestartNeedsNoLengthAndTimesMayBeMilliseconds() {
        assertThat(FaultSpec.parse("restart:5s").length()).isZero();
        assertThat(FaultSpec.parse("restart:5s").label()).isEqualTo("restart5s");
        FaultSpec late = FaultSpec.parse("restart:1.5s+500ms");
        assertThat(late.at()).isEqualTo(Duration.ofMillis(1500));
        assertThat(late.label()).isEqualTo("restart1500ms+500ms");
    }

    @Test
    void aResetNeedsTheProxyAndALength() {
        FaultSpec reset = FaultSpec.parse("reset:5s+2s");
        assertThat(reset.kind()).isEqualTo(FaultSpec.Kind.RESET);
        assertThat(reset.needsProxy()).isTrue();
        assertThat(FaultSpec.parse("stall:5s+2s").needsProxy()).isFalse();
        assertThat(Conditions.parse("reset5s+2s").storeBehindProxy()).isTrue();
        assertThat(Conditions.parse("stall5s+2s").storeBehindProxy()).isFalse();
        assertThatThrownBy(() -> FaultSpec.parse("reset:5s")).hasMessageContaining("needs a length");
    }

    @Test
    void theConditionsFormReadsBackAsTheSameFault() {
        FaultSpec stall = FaultSpec.parse("stall:3s+2s");
        assertThat(FaultSpec.parse(stall.label())).isEqualTo(stall);
    }

    @Test
    void refusesWhatItCannotRead() {
        assertThatThrownBy(() -> FaultSpec.parse("stall:5s")).hasMessageContaining("needs a length");
        assertThatThrownBy(() -> FaultSpec.parse("freeze:5s+2s")).hasMessageContaining("unknown fault 'freeze'");
        assertThatThrownBy(() -> FaultSpec.parse("stall at 5")).hasMessageContaining("KIND:AT+FOR");
        assertThatThrownBy(() -> FaultSpec.parse("stall:5m+2s")).hasMessageContaining("KIND:AT+FOR");
    }

    @Test
    void conditionsCarryFaultsAfterTheirOwnAndReadThemBack() {
        Conditions c = new Conditions(true, false, false).withFaults(List.of(FaultSpec.parse("stall:5s+2s"),
                FaultSpec.parse("restart:9s")));
        assertThat(c.label()).isEqualTo("tls+stall5s+2s+restart9s");
        assertThat(Conditions.parse(c.label())).isEqualTo(c);
        assertThat(Conditions.parse("stall5s+2s").faults()).containsExactly(FaultSpec.parse("stall:5s+2s"));
        assertThat(Conditions.parse("plain").faults()).isEmpty();
        assertThatThrownBy(() -> Conditions.parse("tls+2s")).hasMessageContaining("unknown condition '2s'");
    }
}
