package org.testbed.runfolder.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.SyntheticRun;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.stats.Spread;
import org.w3c.dom.Element;

/** --assert over a run folder written through its own tables. */
class RunAssertionsTest {
    @TempDir
    Path dir;

    /** The mix step's p99 interval, as steps.csv holds it. */
    private Spread mixP99;

    @BeforeEach
    void run() throws Exception {
        SyntheticRun.write(dir, List.of(
                SyntheticRun.Step.of(Records.closed("vertx", "mix", 64), 20000, 4, 0.04),
                SyntheticRun.Step.of(Records.closed("vertx", "delay", 400), 2600, 160, 0.05).times(1, 1).withErrors(2),
                SyntheticRun.Step.of(Records.open("vertx", "mix", 5000), 4900, 50, 0.05).probing("p99<=5ms"),
                SyntheticRun.Step.of(Records.open("vertx", "plaintext", 800), 800, 1, 0.01).probing("p99<=5ms")));
        mixP99 = StepsCsv.TABLE.read(dir.resolve(StepsCsv.FILE)).stream()
                .filter(s -> s.key().scenario().equals("mix") && s.key().targetRps() == 0).findFirst()
                .map(s -> s.repeats().p99()).orElseThrow();
        assertThat(mixP99.confidence()).isEqualTo(0.95);
        assertThat(mixP99.ciLow()).isLessThan(mixP99.ciHigh());
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.4fms", v);
    }

    private List<RunAssertions.Check> check(String... assertions) throws Exception {
        return RunAssertions.check(dir, Arrays.stream(assertions).map(Assertion::parse).toList());
    }

    @Test
    void aStepWithRepeatsIsJudgedByItsWholeInterval() throws Exception {
        List<RunAssertions.Check> checks = check("mix:p99<=" + ms(mixP99.ciHigh() * 1.05),
                "mix:p99<=" + ms((mixP99.ciLow() + mixP99.ciHigh()) / 2), "mix:p99<=" + ms(mixP99.ciLow() * 0.95));
        assertThat(checks).extracting(RunAssertions.Check::outcome)
                .containsExactly(Outcome.PASSED, Outcome.INCONCLUSIVE, Outcome.FAILED);
        assertThat(checks).extracting(RunAssertions.Check::name).allMatch(n -> n.startsWith("vertx mix c=64 mix:p99<="));
        assertThat(checks.get(0).message()).contains("interval [", "at 95 % over 6 samples, meets mix:p99<=");
        assertThat(checks.get(1).message()).contains("neither meets nor fails", "the interval reaches both sides");
        assertThat(checks.get(2).message()).contains("fails mix:p99<=", ": the whole interval is above ");
        assertThat(checks.get(0).figure()).as("the figure and its interval, the unit once")
                .matches("4\\.\\d+ \\[\\d\\.\\d+, \\d\\.\\d+\\] ms");
    }

    @Test
    void aSingleSampleDecidesByItselfAndErrorsAreAnExactCount() throws Exception {
        List<RunAssertions.Check> checks = check("p99<=100ms", "errors=0");
        assertThat(checks).extracting(RunAssertions.Check::name).containsExactly("vertx mix c=64 p99<=100ms",
                "vertx delay c=400 p99<=100ms", "vertx mix c=64 errors=0", "vertx delay c=400 errors=0");
        assertThat(checks).extracting(RunAssertions.Check::outcome)
                .containsExactly(Outcome.PASSED, Outcome.FAILED, Outcome.PASSED, Outcome.FAILED);
        assertThat(checks.get(1).message()).isEqualTo("p99 160 ms (one sample), fails p99<=100ms: above 100 ms");
        assertThat(checks.get(2).message()).isEqualTo("errors 0 (the most any of its 6 samples had), meets errors=0");
        assertThat(checks.get(3).message()).isEqualTo("errors 2 (one sample), fails errors=0: other than 0");
    }

    @Test
    void aFigureWithoutAnIntervalInStepsCsvIsDecidedByItsMedianAndSaysSo() throws Exception {
        List<RunAssertions.Check> checks = check("mix:p50<=2ms", "mix:rps>=1000", "delay:cpu<=40us");
        assertThat(checks).extracting(RunAssertions.Check::outcome)
                .containsExactly(Outcome.PASSED, Outcome.PASSED, Outcome.FAILED);
        assertThat(checks.get(0).message()).contains("(the median of 6 samples; steps.csv keeps no interval of p50)");
        assertThat(checks.get(1).message()).contains(" req/s, interval [", "meets mix:rps>=1000");
        assertThat(checks.get(2).message()).isEqualTo("cpu 50 us (one sample), fails delay:cpu<=40us: above 40 us");
    }

    @Test
    void capacityProbesAreNotCheckedAndAnAssertionMatchingNoStepSaysSo() throws Exception {
        List<RunAssertions.Check> checks = check("mix:p99<=5ms", "plaintext:p99<=5ms");
        assertThat(checks).extracting(RunAssertions.Check::name)
                .containsExactly("vertx mix c=64 mix:p99<=5ms", "plaintext:p99<=5ms");
        assertThat(checks.get(1).outcome()).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(checks.get(1).message())
                .isEqualTo("no step of scenario plaintext to check (1 capacity search probe(s) are not checked)");
    }

    @Test
    void aScopeMustBeAScenarioOfTheRun() throws Exception {
        assertThat(RunAssertions.scenarios(dir)).containsExactly("mix", "delay", "plaintext");
        RunAssertions.requireScenarios(List.of(Assertion.parse("mix:p99<=5ms"), Assertion.parse("errors=0")),
                RunAssertions.scenarios(dir));
        assertThatThrownBy(() -> RunAssertions.requireScenarios(List.of(Assertion.parse("json:p99<=5ms")),
                RunAssertions.scenarios(dir)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--assert 'json:p99<=5ms': no scenario 'json' in this run; its scenarios: mix, delay, plaintext");
    }

    @Test
    void theJUnitReportAndTheTableSayTheSame() throws Exception {
        List<RunAssertions.Check> checks = check("p99<=100ms", "errors=0", "mix:p99<=" + ms((mixP99.ciLow() + mixP99.ciHigh()) / 2));
        Path file = RunAssertions.write(dir, checks);
        assertThat(file).isEqualTo(dir.resolve("assert-junit.xml"));
        Element root = JUnitXmlTest.parse(file).getDocumentElement();
        assertThat(root.getAttribute("tests")).isEqualTo("5");
        assertThat(root.getAttribute("failures")).isEqualTo("2");
        assertThat(root.getAttribute("skipped")).isEqualTo("1");
        assertThat(JUnitXmlTest.elements(root, "failure")).extracting(f -> f.getAttribute("message"))
                .containsExactly("p99 160 ms (one sample), fails p99<=100ms: above 100 ms",
                        "errors 2 (one sample), fails errors=0: other than 0");
        assertThat(JUnitXmlTest.elements(root, "skipped")).singleElement()
                .satisfies(s -> assertThat(s.getAttribute("message")).contains("neither meets nor fails"));

        String table = RunAssertions.table(checks);
        assertThat(table.lines().skip(1).limit(5)).extracting(l -> l.split("\\s+")[0])
                .containsExactly("PASS", "FAIL", "PASS", "FAIL", "INCONCLUSIVE");
        assertThat(table).contains("FAIL vertx delay c=400 p99<=100ms: p99 160 ms (one sample)")
                .endsWith("assertions: 5 checked: 2 passed, 2 failed, 1 inconclusive\n");
    }

    @Test
    void aRunWithoutStepsCsvIsJudgedByItsFigures() throws Exception {
        Files.delete(dir.resolve(StepsCsv.FILE));
        List<RunAssertions.Check> checks = check("mix:p99<=" + ms((mixP99.ciLow() + mixP99.ciHigh()) / 2));
        assertThat(checks).extracting(RunAssertions.Check::name)
                .as("without steps.csv no step is known to be a probe").hasSize(2);
        assertThat(checks.get(0).message()).contains("(one sample)");
        assertThat(checks.get(0).outcome()).isNotEqualTo(Outcome.INCONCLUSIVE);
    }

    @Test
    void theCaveatsOfAStepGoWithItsCheck() throws Exception {
        List<StepRecord> steps = StepsCsv.TABLE.read(dir.resolve(StepsCsv.FILE));
        StepsCsv.TABLE.write(dir.resolve(StepsCsv.FILE), steps.stream().map(s -> s.key().scenario().equals("delay")
                ? Records.saturated(s.over(s.repeats(), new StepRecord.Steadiness(60, 1, 1), s.open(), true))
                        .withListenOverflowSamples(1) : s).toList());
        RunAssertions.Check delay = check("delay:errors=0").get(0);
        assertThat(delay.caveats()).containsExactly("warm-up cut short in 1 of 1 samples", "NOT STEADY in 1 of 1 samples",
                "SATURATED: the load side may have been the limit",
                "listen queue overflowed in 1 of 1 samples: its tail holds connect retries, not service time");
        assertThat(RunAssertions.table(List.of(delay))).contains("(warm-up cut short in 1 of 1 samples; NOT STEADY");
    }
}
