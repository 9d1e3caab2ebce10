package org.testbed.runfolder.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.figure.Figure;

/** The parts the precision phase is built of: targets, variance components, modes, half-widths. */
class PrecisionPartsTest {

    @Test
    void targetsNameScenariosAndFigures() {
        PrecisionTarget t = PrecisionTarget.parse(List.of("5%", "delay:10%:rps,cpu,p99"));
        assertThat(t.forScenario("mix")).hasValueSatisfying(r -> {
            assertThat(r.pct()).isEqualTo(5);
            assertThat(r.figures()).isEqualTo(PrecisionTarget.DEFAULT_FIGURES);
        });
        assertThat(t.forScenario("delay")).hasValueSatisfying(r -> {
            assertThat(r.pct()).isEqualTo(10);
            assertThat(r.figures()).isEqualTo(PrecisionTarget.TARGETABLE);
        });
        assertThat(PrecisionTarget.parse(List.of("mix:5")).forScenario("delay")).as("no general rule").isEmpty();
        assertThat(PrecisionTarget.parse(List.of("2.5%:p99")).forScenario("json").orElseThrow().figures())
                .containsExactly(Figure.P99);
        assertThat(t.describe()).isEqualTo("every scenario ±5 % (rps, cpu); delay ±10 % (rps, p99, cpu)");
        assertThatThrownBy(() -> PrecisionTarget.parse(List.of("0%"))).hasMessageContaining("above 0");
        assertThatThrownBy(() -> PrecisionTarget.parse(List.of("mix:5%:gc"))).hasMessageContaining("unknown figure 'gc'");
        assertThatThrownBy(() -> PrecisionTarget.parse(List.of("mix:fast"))).hasMessageContaining("not a percentage");
        assertThatThrownBy(() -> PrecisionTarget.parse(List.of("mix:5%", "mix:3%"))).hasMessageContaining("twice");
    }

    @Test
    void varianceComponentsSeparateJvmsFromIterations() {
        // Many forks, JVMs 6 % apart, iterations 1.5 %: the components come back near what made them.
        List<double[]> forks = SyntheticForks.forks(new Random(21), 400, 3, 0.06, 0.015);
        VarianceComponents c = VarianceComponents.of(forks);
        assertThat(c.forkSdPct()).isCloseTo(6, within(0.6));
        assertThat(c.iterationSdPct()).isCloseTo(1.5, within(0.1));
        assertThat(c.forks()).isEqualTo(400);
        assertThat(c.iterations()).isCloseTo(3, within(1e-9));
        // Kalibera and Jones: a fork of 30 s against an iteration of 3.5 s, σw/σf = 1/4: √(30/3.5 / 16) ≈ 0.73 → 1.
        assertThat(c.optimalIterations(30, 3.5, 3, 6)).isEqualTo(1);
        // JVMs that agree: iterations are the only precision left to buy, up to the most allowed.
        assertThat(VarianceComponents.of(SyntheticForks.forks(new Random(22), 50, 3, 0, 0.02))
                .optimalIterations(30, 3.5, 3, 6)).isBetween(4, 6);
        assertThat(VarianceComponents.of(List.of(new double[] {5})).optimalIterations(30, 3.5, 3, 6))
                .as("nothing known: the planned iterations").isEqualTo(3);
    }

    @Test
    void twoModesAreNamedAndOneSpreadIsNot() {
        List<double[]> vertx = List.of(new double[] {56_400, 57_000}, new double[] {49_400, 48_100},
                new double[] {56_100, 56_900}, new double[] {50_800, 49_900});
        Modes m = Modes.of(vertx, List.of(1, 2, 3, 4)).orElseThrow();
        assertThat(m.low().forks()).containsExactly(2, 4);
        assertThat(m.high().forks()).containsExactly(1, 3);
        assertThat(m.apartPct()).isCloseTo(14, within(1.0));
        List<double[]> spread = List.of(new double[] {50_000, 50_100}, new double[] {52_000, 52_100},
                new double[] {54_000, 53_900}, new double[] {56_000, 56_100});
        assertThat(Modes.of(spread, List.of(1, 2, 3, 4))).as("evenly spread, no gap wider than either side").isEmpty();
        assertThat(Modes.of(List.of(new double[] {100, 100.5}, new double[] {100.2, 100.1}), List.of(1, 2)))
                .as("two JVMs within their iterations' noise").isEmpty();
    }

    @Test
    void theHalfWidthIsTheIntervalsFactorOnTheLogScale() {
        ForkedSamples.Estimate e = ForkedSamples.estimate(List.of(new double[] {100, 102, 101}, new double[] {110, 111, 109}));
        double[] ci = e.interval();
        Spread spread = new Spread(6, 105, 100, 111, ci[0], ci[1], ForkedSamples.LEVEL);
        assertThat(spread.halfWidthPct()).isCloseTo(e.halfWidthPct(), within(1e-9));
        assertThat(ci[1] / e.centre()).isCloseTo(1 + e.halfWidthPct() / 100, within(1e-12));
        assertThat(Spread.single(5).halfWidthPct()).isNaN();
        assertThat(ForkedSamples.estimate(List.of(new double[] {5})).halfWidthPct()).isNaN();
    }
}
