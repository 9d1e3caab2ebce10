package org.testbed.runfolder.figure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FigureTest {

    @Test
    void aFigureIsWrittenInItsOwnDigitsWithItsUnit() {
        assertThat(Figure.CPU.format(0.0421337)).isEqualTo("0.04213");
        assertThat(Figure.CPU.show(0.0421337)).isEqualTo("0.04213 ms/req");
        assertThat(Figure.RPS.show(20000)).isEqualTo("20000.0 req/s");
        assertThat(Figure.INVOLUNTARY_CS.show(0.5)).as("a per-request count").isEqualTo("0.5000/req");
        assertThat(Figure.COST.format(0.000288888888)).as("significant digits").isEqualTo("0.000288889");
        assertThat(Figure.P99.format(Double.NaN)).isEmpty();
        assertThat(Figure.P99.show(Double.NaN)).isEqualTo("-");
    }

    @Test
    void keysAreUniqueAndFoundByName() {
        assertThat(Arrays.stream(Figure.values()).map(Figure::key).distinct()).hasSize(Figure.values().length);
        assertThat(Figure.named("p999")).contains(Figure.P999);
        assertThat(Figure.named("bytes_out")).contains(Figure.BYTES_OUT);
        assertThat(Figure.named("latency")).isEmpty();
    }

    @Test
    void aChangeIsSaidInTheFiguresOwnWords() {
        assertThat(Figure.RPS.verdictWords()).containsExactly("faster", "slower");
        assertThat(Figure.COST.verdictWords()).containsExactly("cheaper", "costlier");
        assertThat(Figure.BYTES_OUT.verdictWords()).containsExactly("smaller", "larger");
    }

    @Test
    void theProbesFiguresAreThoseOfTheirLevel() {
        assertThat(Figure.probed(Figure.Level.SAMPLE)).containsExactly(Figure.BYTES_IN, Figure.BYTES_OUT, Figure.RECOVERY,
                Figure.UNRECOVERED, Figure.FAULT_STATUS, Figure.FAULT_TIMEOUTS, Figure.FAULT_CONNECTION, Figure.WRONG,
                Figure.UNFINISHED, Figure.SERVER_SPEED, Figure.LOAD_SPEED);
        assertThat(Figure.probed(Figure.Level.OPERATION)).isEmpty();
    }

    @Test
    void aSizeBoundIsHeldInBytes() {
        assertThat(Quantity.BYTES.unit("kb")).contains("kB");
        assertThat(Quantity.BYTES.unit("KIB")).contains("KiB");
        assertThat(Quantity.BYTES.unit("kbit")).isEmpty();
        assertThat(Quantity.BYTES.toHeld(2, "kB")).isEqualTo(2000);
        assertThat(Quantity.BYTES.toHeld(2, "KiB")).isEqualTo(2048);
        assertThat(Quantity.TIME.unit("µs")).contains("us");
        assertThat(Quantity.TIME.fromHeld(0.05, "us")).isEqualTo(50);
    }
}
