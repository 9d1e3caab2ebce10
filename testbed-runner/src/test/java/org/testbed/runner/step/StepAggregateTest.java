package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.Spread;

class StepAggregateTest {

    @Test
    void eachFigureIsTheMedianOfItsSamplesAndErrorsAreNeverHidden() {
        StepAggregate a = StepAggregate.of(List.of(
                sample(1, 1000, 5.0, 0.030, 0.010, 0, false, true),
                sample(2, 1400, 9.0, 0.020, 0.004, 7, true, false),
                sample(3, 1100, 6.0, 0.025, 0.015, 0, false, true)));
        ResultRow row = a.row();
        assertThat(row.rps()).isEqualTo(1100);
        assertThat(row.latP99Ms()).isEqualTo(6.0);
        assertThat(row.errors()).as("the most any repeat had").isEqualTo(7);
        // CPU per request: totals 0.040, 0.024, 0.040 -> median 0.040, split as that sample's
        assertThat(row.cpuMsPerReq()).isCloseTo(0.040, within(1e-12));
        assertThat(row.cpuUserMsPerReq() + row.cpuSysMsPerReq()).isCloseTo(a.step().cpu().median(), within(1e-12));
        assertThat(row.latP90Ms()).isLessThanOrEqualTo(row.latP99Ms());
        assertThat(row.latP99Ms()).isLessThanOrEqualTo(row.latP999Ms());

        StepRecord step = a.step();
        assertThat(step.repeats()).isEqualTo(3);
        assertThat(step.rps().min()).isEqualTo(1000);
        assertThat(step.rps().max()).isEqualTo(1400);
        assertThat(step.rps().median()).isEqualTo(1100);
        assertThat(step.p99().max()).isEqualTo(9.0);
        assertThat(step.loadSaturated()).as("saturated in any repeat").isTrue();
        assertThat(step.notSteadySamples()).isEqualTo(1);
        assertThat(step.steady()).isFalse();
        assertThat(step.warmupUnsettledSamples()).as("repeat 2's warm-up hit its limit").isEqualTo(1);
        assertThat(step.raw()).as("the raw file of the median-throughput sample").isEqualTo("raw/v/mix-c0064-r3.txt");
    }

    @Test
    void aSingleSampleIsItsOwnMedianWithoutAnInterval() {
        StepAggregate a = StepAggregate.of(List.of(sample(1, 1000, 5.0, 0.030, 0.010, 0, false, true)));
        assertThat(a.row().rps()).isEqualTo(1000);
        assertThat(a.step().rps().n()).isEqualTo(1);
        assertThat(a.step().rps().confidence()).isZero();
    }

    @Test
    void passesRotateTheVariantOrder() {
        List<String> v = List.of("a", "b", "c");
        assertThat(Runner.rotated(v, 0)).containsExactly("a", "b", "c");
        assertThat(Runner.rotated(v, 1)).containsExactly("b", "c", "a");
        assertThat(Runner.rotated(v, 2)).containsExactly("c", "a", "b");
        assertThat(Runner.rotated(v, 3)).containsExactly("a", "b", "c");
    }

    private static Sample sample(int repeat, double rps, double p99, double user, double sys, long errors, boolean saturated,
                                 boolean steady) {
        String raw = "raw/v/mix-c0064-r" + repeat + ".txt";
        ResultRow row = new ResultRow("r", "2026-01-01T00:00:0" + repeat + "Z", "h", "x86_64", "cpu", 2, "25", "v", "async",
                "mix", "testbed-nio", 64, 0, 5, (long) rps * 5, errors, rps, p99 / 3, p99 / 2, p99, p99 * 2, p99 * 3,
                user, sys, 200, 1, 2);
        StepRecord step = new StepRecord("v", "mix", 64, 0, "testbed-nio", 100, 40, 10, 60, 90, 0, 0, saturated ? 95 : 50,
                saturated, 64, "0", "1", 0, 200, raw, "", 1, Spread.single(rps), Spread.single(p99),
                Spread.single(user + sys), 8, steady ? 0 : 1, Double.NaN, Double.NaN, repeat == 2 ? 1 : 0);
        SampleRecord s = new SampleRecord("v", "mix", 64, 0, repeat, rps, p99, user + sys, errors, Double.NaN, Double.NaN,
                8, steady, raw, repeat != 2);
        return new Sample(row, step, s, null);
    }
}
