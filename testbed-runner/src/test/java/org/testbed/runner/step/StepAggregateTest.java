package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.testbed.runfolder.Conditions;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.PrecisionTarget;
import org.testbed.runfolder.stats.Spread;
import org.testbed.runfolder.figure.Figure;

class StepAggregateTest {

    @Test
    void eachFigureIsTheMedianOfItsSamplesAndErrorsAreNeverHidden() {
        StepAggregate a = StepAggregate.of(List.of(
                sample(1, 1000, 5.0, 0.030, 0.010, 0, false, true),
                sample(2, 1400, 9.0, 0.020, 0.004, 7, true, false),
                sample(3, 1100, 6.0, 0.025, 0.015, 0, false, true)));
        ResultRow row = a.row();
        assertThat(row.throughput().rps()).isEqualTo(1100);
        assertThat(row.latency().p99Ms()).isEqualTo(6.0);
        assertThat(row.throughput().errors()).as("the most any repeat had").isEqualTo(7);
        // CPU per request: totals 0.040, 0.024, 0.040 -> median 0.040, split as that sample's
        assertThat(row.server().cpuMsPerReq()).isCloseTo(0.040, within(1e-12));
        assertThat(row.server().cpuUserMsPerReq() + row.server().cpuSysMsPerReq()).isCloseTo(a.step().repeats().cpu().median(), within(1e-12));
        assertThat(row.latency().p90Ms()).isLessThanOrEqualTo(row.latency().p99Ms());
        assertThat(row.latency().p99Ms()).isLessThanOrEqualTo(row.latency().p999Ms());

        StepRecord step = a.step();
        assertThat(step.repeats().count()).isEqualTo(3);
        assertThat(step.repeats().rps().min()).isEqualTo(1000);
        assertThat(step.repeats().rps().max()).isEqualTo(1400);
        assertThat(step.repeats().rps().median()).isEqualTo(1100);
        assertThat(step.repeats().p99().max()).isEqualTo(9.0);
        assertThat(step.load().saturated()).as("saturated in any repeat").isTrue();
        assertThat(step.steadiness().notSteadySamples()).isEqualTo(1);
        assertThat(step.steadiness().steady()).isFalse();
        assertThat(step.steadiness().warmupUnsettledSamples()).as("repeat 2's warm-up hit its limit").isEqualTo(1);
        assertThat(step.files().raw()).as("the raw file of the median-throughput sample").isEqualTo("raw/v/mix-c0064-r3.txt");
    }

    @Test
    void aSingleSampleIsItsOwnMedianWithoutAnInterval() {
        StepAggregate a = StepAggregate.of(List.of(sample(1, 1000, 5.0, 0.030, 0.010, 0, false, true)));
        assertThat(a.row().throughput().rps()).isEqualTo(1000);
        assertThat(a.step().repeats().rps().n()).isEqualTo(1);
        assertThat(a.step().repeats().rps().confidence()).isZero();
    }

    @Test
    void aStepWhoseTwoJvmsDisagreeSaysWhatItsTargetWouldTakeAndNamesNoModesInTwoForks() {
        // Two JVMs 13 % apart, each steady within 1 %: the fork is the unit, one degree of freedom.
        StepAggregate a = StepAggregate.of(List.of(
                sample(1, 50000, 2.0, 0.015, 0.005, 0, false, true), sample(1, 50400, 2.0, 0.015, 0.005, 0, false, true),
                sample(1, 49700, 2.0, 0.015, 0.005, 0, false, true), sample(2, 56500, 2.0, 0.015, 0.005, 0, false, true),
                sample(2, 56900, 2.0, 0.015, 0.005, 0, false, true), sample(2, 56200, 2.0, 0.015, 0.005, 0, false, true)));
        PrecisionTarget.Rule fivePct = new PrecisionTarget.Rule("mix", 5, EnumSet.of(Figure.RPS));

        assertThat(a.widthRatio(fivePct)).as("far beyond ±5 %").isGreaterThan(10);
        assertThat(a.widest(fivePct)).isEqualTo(Figure.RPS);
        int needed = a.forksNeeded(fivePct, 50);
        assertThat(needed).as("a fork mean scattering 8.6 per cent needs about (2.1 × 8.6 / 4.9)² forks").isBetween(12, 20);
        assertThat(a.forksNeeded(new PrecisionTarget.Rule("mix", 50, EnumSet.of(Figure.RPS)), 50))
                .as("a target twice as wide as the JVMs' gap: a few more forks").isBetween(3, 6);
        assertThat(PrecisionPhase.modes(a, Figure.RPS)).as("one fork a side is no mode")
                .startsWith("; fork means 1: 5").doesNotContain("two modes");
    }

    @Test
    void passesRotateTheVariantOrder() {
        List<String> v = List.of("a", "b", "c");
        assertThat(Runner.rotated(v, 0)).containsExactly("a", "b", "c");
        assertThat(Runner.rotated(v, 1)).containsExactly("b", "c", "a");
        assertThat(Runner.rotated(v, 2)).containsExactly("c", "a", "b");
        assertThat(Runner.rotated(v, 3)).containsExactly("a", "b", "c");
    }

    @Test
    void aWindowOnASlowMachineIsLeftOutOfTheFigureAndCountedWithItsRetake() {
        // Fork 1's window ran at 0.7 of full speed (1000 req/s) and was measured again (1400); fork 2 kept its window.
        StepAggregate a = StepAggregate.of(List.of(
                sample(1, 1000, 9.0, 0.030, 0.010, 0, false, true).leftOut(),
                sample(1, 1400, 5.0, 0.020, 0.005, 0, false, true),
                sample(2, 1500, 4.0, 0.020, 0.004, 0, false, true)));
        assertThat(a.row().throughput().rps()).as("the median of the two kept windows").isEqualTo(1450);
        assertThat(a.step().repeats().count()).isEqualTo(2);
        assertThat(a.step().repeats().rps().min()).as("the slow window is in no spread").isEqualTo(1400);
        assertThat(a.samples()).hasSize(2).noneMatch(s -> s.sample().leftOut());
        assertThat(a.step().steadiness().slowMachineSamples()).isEqualTo(1);
        assertThat(a.step().steadiness().slowMachineRetakes()).as("fork 1's window measured twice").isEqualTo(1);
        assertThat(a.step().steadiness().slowMachineFigure()).isFalse();
    }

    @Test
    void aStepWhoseEveryWindowRanSlowKeepsThemAllAndSaysSo() {
        StepAggregate a = StepAggregate.of(List.of(
                sample(1, 1000, 9.0, 0.030, 0.010, 0, false, true).leftOut(),
                sample(2, 1200, 7.0, 0.030, 0.010, 0, false, true).leftOut()));
        assertThat(a.row().throughput().rps()).isEqualTo(1100);
        assertThat(a.step().repeats().count()).isEqualTo(2);
        assertThat(a.step().steadiness().slowMachineSamples()).isEqualTo(2);
        assertThat(a.step().steadiness().slowMachineRetakes()).isZero();
        assertThat(a.step().steadiness().slowMachineFigure()).as("the figure is of slow windows only").isTrue();
    }

    private static Sample sample(int repeat, double rps, double p99, double user, double sys, long errors, boolean saturated,
                                 boolean steady) {
        String raw = "raw/v/mix-c0064-r" + repeat + ".txt";
        ResultRow.StepKey key = new ResultRow.StepKey("v", "mix", 64, 0, Conditions.PLAIN);
        ResultRow row = new ResultRow(new ResultRow.Origin("r", "2026-01-01T00:00:0" + repeat + "Z", "h", "x86_64", "cpu", 2, "25"),
                key, "async", "testbed-nio", new ResultRow.Throughput(5, (long) rps * 5, errors, rps),
                new ResultRow.Latencies(p99 / 3, p99 / 2, p99, p99 * 2, p99 * 3), new ResultRow.ServerCost(user, sys, 200, 1, 2));
        StepRecord step = new StepRecord(key, new StepRecord.DriverSide("testbed-nio", 100, 40, 64, 0, 0),
                new StepRecord.ServerSide(90, 212), new StepRecord.LoadSide(10, 60, 0, 0, saturated ? 95 : 50, saturated),
                new StepRecord.Setup("0", "1", 0, 200, ""), new StepRecord.Files(raw, Optional.empty(), Optional.empty()),
                new StepRecord.Repeats(1, Spread.single(rps), Spread.single(p99), Spread.single(user + sys)),
                new StepRecord.Steadiness(8, steady ? 0 : 1, repeat == 2 ? 1 : 0), StepRecord.OpenModel.CLOSED,
                StepRecord.Cost.NONE);
        SampleRecord s = new SampleRecord(key, repeat, 1, new SampleRecord.Figures(rps, p99, user + sys, errors),
                StepRecord.OpenModel.CLOSED, new SampleRecord.Caveats(8, repeat != 2, steady, 0, saturated), raw, 0, 0);
        return new Sample(row, step, s, List.of());
    }
}
