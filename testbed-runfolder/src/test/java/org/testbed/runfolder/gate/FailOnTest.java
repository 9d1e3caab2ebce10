package org.testbed.runfolder.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.SyntheticRun;
import org.testbed.runfolder.compare.CompareWriter;
import org.testbed.runfolder.compare.Comparison;
import org.testbed.runfolder.compare.Comparison.Change;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.figure.Figure;

/** compare --fail-on: its grammar, and the decision from compare's verdicts. */
class FailOnTest {
    private static final double[] AROUND_ONE = {1.0, 0.98, 1.02, 0.99, 1.01, 0.97};

    @TempDir
    Path dir;

    @Test
    void slowerGatesEveryFigureAndAFigureNamedAloneGatesOnlyItself() {
        assertThat(FailOn.parse(List.of("slower")).minEffects())
                .as("every figure, the cost of two priced runs too, but not the saturation readings")
                .isEqualTo(Map.of(Figure.RPS, 0.0, Figure.P99, 0.0, Figure.CPU, 0.0, Figure.COST, 0.0));
        assertThat(FailOn.parse(List.of("slower,runq_wait>20%")).minEffects()).as("a saturation reading gates when named")
                .isEqualTo(Map.of(Figure.RPS, 0.0, Figure.P99, 0.0, Figure.CPU, 0.0, Figure.COST, 0.0, Figure.RUNQ_WAIT, 0.20));
        assertThat(FailOn.parse(List.of("rps,p99")).minEffects()).isEqualTo(Map.of(Figure.RPS, 0.0, Figure.P99, 0.0));
        assertThat(FailOn.parse(List.of("p99>10%")).minEffects()).isEqualTo(Map.of(Figure.P99, 0.10));
        assertThat(FailOn.parse(List.of(" Slower > 5 % ")).minEffects())
                .isEqualTo(Map.of(Figure.RPS, 0.05, Figure.P99, 0.05, Figure.CPU, 0.05, Figure.COST, 0.05));
        assertThat(FailOn.parse(List.of("slower>5%,p99>12.5%")).minEffects())
                .as("a figure named on its own keeps its own minimum").isEqualTo(Map.of(Figure.RPS, 0.05, Figure.P99, 0.125,
                        Figure.CPU, 0.05, Figure.COST, 0.05));
        assertThat(FailOn.parse(List.of("rps", "cpu>3%")).minEffects())
                .as("the option repeated").isEqualTo(Map.of(Figure.RPS, 0.0, Figure.CPU, 0.03));
        assertThat(FailOn.parse(List.of("rps", "cpu>3%")).text()).isEqualTo("rps,cpu>3%");
    }

    @Test
    void badInputIsOneLineNamingWhatIsAllowed() {
        assertBad("faster", "--fail-on 'faster': no figure 'faster'; --fail-on takes slower (rps, p99, cpu, cost) or figures"
                + " among rps, p99, cpu, cost, runq_wait, involuntary_cs, pinned, pinned_ms, gc_pause, bytes_in, bytes_out,"
                + " recovery, fault_status, fault_timeouts, fault_connection, comma-separated");
        assertBad("", "--fail-on '' has an empty term");
        assertBad("rps,,p99", "--fail-on 'rps,,p99' has an empty term");
        assertBad("p99>10", "--fail-on 'p99>10': 'p99>10' is not a figure with an optional >PCT%");
        assertBad("p99<10%", "--fail-on 'p99<10%': 'p99<10%' is not a figure with an optional >PCT%");
        assertBad("slower>0%", "the smallest change in 'slower>0%' must be above 0 % and below 100 %");
        assertBad("rps>100%", "the smallest change in 'rps>100%' must be above 0 % and below 100 %");
        assertBad("rps,p99,rps>5%", "--fail-on 'rps,p99,rps>5%' names rps twice");
        assertBad("slower,slower>5%", "names slower twice");
        assertThatThrownBy(() -> FailOn.parse(List.of())).hasMessageStartingWith("--fail-on needs a value");
    }

    private static void assertBad(String value, String expected) {
        assertThatThrownBy(() -> FailOn.parse(List.of(value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(expected)
                .hasMessageEndingWith(FailOn.USAGE)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void slowerBeyondNoiseFailsInTheFiguresOwnDirection() {
        FailOn slower = FailOn.parse(List.of("slower"));
        Change halfTheThroughput = change(Figure.RPS, 20000, 0.5);
        assertThat(halfTheThroughput.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(slower.outcome(halfTheThroughput)).isEqualTo(Outcome.FAILED);

        Change twiceTheP99 = change(Figure.P99, 4, 2);
        assertThat(twiceTheP99.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(slower.outcome(twiceTheP99)).isEqualTo(Outcome.FAILED);

        Change halfTheCpu = change(Figure.CPU, 0.04, 0.5);
        assertThat(halfTheCpu.verdict()).as("less CPU per request is faster").isEqualTo(Verdict.FASTER);
        assertThat(slower.outcome(halfTheCpu)).isEqualTo(Outcome.PASSED);

        Change twiceTheThroughput = change(Figure.RPS, 20000, 2);
        assertThat(slower.outcome(twiceTheThroughput)).isEqualTo(Outcome.PASSED);

        Change same = change(Figure.RPS, 20000, 1);
        assertThat(same.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(slower.outcome(same)).isEqualTo(Outcome.PASSED);
    }

    @Test
    void aSmallestChangeLetsASlowerFigureWithinItPass() {
        Change aFifthSlower = change(Figure.RPS, 20000, 0.8);
        assertThat(aFifthSlower.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(FailOn.slowdown(aFifthSlower)).isCloseTo(0.2, within(1e-9));
        assertThat(FailOn.parse(List.of("rps>5%")).outcome(aFifthSlower)).isEqualTo(Outcome.FAILED);
        assertThat(FailOn.parse(List.of("rps>25%")).outcome(aFifthSlower)).isEqualTo(Outcome.PASSED);
        assertThat(FailOn.parse(List.of("rps>25%")).check(new Comparison(List.of(), List.of(), List.of(), Optional.empty(), Optional.empty()), "a", "b")
                .cases()).isEmpty();

        Change p99UpByAThird = change(Figure.P99, 4, 1.3);
        assertThat(p99UpByAThird.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(FailOn.slowdown(p99UpByAThird)).isCloseTo(0.3, within(1e-9));
        assertThat(FailOn.parse(List.of("p99>10%")).outcome(p99UpByAThird)).isEqualTo(Outcome.FAILED);
        assertThat(FailOn.parse(List.of("slower>35%")).outcome(p99UpByAThird)).isEqualTo(Outcome.PASSED);
    }

    @Test
    void noNoiseEstimateIsInconclusiveNeverPassed() {
        Change once = Comparison.change(Figure.RPS, 20000, 5000, new double[] {20000}, new double[] {5000});
        assertThat(once.verdict()).isEqualTo(Verdict.NO_NOISE_ESTIMATE);
        assertThat(FailOn.every().outcome(once)).isEqualTo(Outcome.INCONCLUSIVE);
    }

    @Test
    void aFigureNotGatedIsNotDecided() {
        assertThatThrownBy(() -> FailOn.parse(List.of("rps")).outcome(change(Figure.P99, 4, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("p99 is not gated");
    }

    @Test
    void theGateOverTwoRunFoldersHasACasePerStepAndGatedFigure() throws Exception {
        SyntheticRun.Step mix = SyntheticRun.Step.of(Records.closed("vertx", "mix", 64), 20000, 4, 0.04);
        SyntheticRun.Step delay = SyntheticRun.Step.of(Records.closed("vertx", "delay", 400), 2600, 160, 0.05);
        SyntheticRun.Step once = SyntheticRun.Step.of(Records.closed("spring-tomcat", "mix", 64), 8000, 9, 0.08).times(1, 1);
        Path a = SyntheticRun.write(dir.resolve("a"), List.of(mix, delay, once));
        Path b = SyntheticRun.write(dir.resolve("b"), List.of(mix.scaled(0.5, 2), delay, once));
        Comparison c = CompareWriter.load(a, b);

        GateSuite every = FailOn.every().check(c, "runs/a", "runs/b");
        assertThat(every.cases()).extracting(GateCase::name).containsExactly(
                "vertx mix c=64 rps", "vertx mix c=64 p99", "vertx mix c=64 cpu",
                "vertx delay c=400 rps", "vertx delay c=400 p99", "vertx delay c=400 cpu",
                "spring-tomcat mix c=64 rps", "spring-tomcat mix c=64 p99", "spring-tomcat mix c=64 cpu");
        assertThat(every.cases()).extracting(GateCase::outcome).containsExactly(
                Outcome.FAILED, Outcome.FAILED, Outcome.FAILED, Outcome.PASSED, Outcome.PASSED, Outcome.PASSED,
                Outcome.INCONCLUSIVE, Outcome.INCONCLUSIVE, Outcome.INCONCLUSIVE);
        assertThat(every.cases().get(0).classname()).isEqualTo("vertx");
        assertThat(every.cases().get(0).message()).startsWith("slower beyond noise: B/A 0.500 [0.")
                .contains("50.0 % slower", "A 19900 req/s (runs/a), B 9950 req/s (runs/b)");
        assertThat(every.cases().get(3).message()).startsWith("within noise: B/A 1.000");
        assertThat(every.cases().get(6).message()).startsWith("no noise estimate: 1 sample(s) in A, 1 in B");
        assertThat(every.summary()).isEqualTo("9 checked: 3 passed, 3 failed, 3 inconclusive");
        assertThat(every.properties()).containsEntry("fail_on", "slower").containsEntry("a", "runs/a");

        GateSuite p99Only = FailOn.parse(List.of("p99>90%")).check(c, "a", "b");
        assertThat(p99Only.cases()).extracting(GateCase::name)
                .containsExactly("vertx mix c=64 p99", "vertx delay c=400 p99", "spring-tomcat mix c=64 p99");
        assertThat(p99Only.cases().get(0).outcome()).as("p99 doubled is 100 %% slower, beyond 90 %%").isEqualTo(Outcome.FAILED);
        assertThat(FailOn.text(p99Only, "--fail-on p99>90%")).startsWith("--fail-on p99>90%: 3 checked: 1 passed, 1 failed,"
                + " 1 inconclusive\n  FAIL vertx mix c=64 p99: slower beyond noise");

        GateSuite aa = FailOn.every().check(CompareWriter.load(a, a), "a", "a");
        assertThat(aa.failed()).as("a run compared with itself").isFalse();
    }

    /** A figure of six samples around {@code a} in A and around {@code a × factor} in B. */
    private static Change change(Figure metric, double a, double factor) {
        double[] sa = new double[AROUND_ONE.length];
        double[] sb = new double[AROUND_ONE.length];
        for (int i = 0; i < sa.length; i++) {
            sa[i] = a * AROUND_ONE[i];
            sb[i] = a * factor * AROUND_ONE[(i + 2) % AROUND_ONE.length];
        }
        return Comparison.change(metric, a, a * factor, sa, sb);
    }
}
