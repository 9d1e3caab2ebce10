package org.testbed.runfolder.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.Saturation;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.figure.Figure;

/** The server's run-queue wait and involuntary switches compared as CPU per request is, when both runs have them. */
class SaturationComparisonTest {
    private static final ResultRow.StepKey KEY = Records.closed("servlet-tomcat-sync", "mix", 256);

    /** Five forks of a step whose run-queue wait is {@code runqUs} per request, give or take 2 %. */
    private static List<SampleRecord> forks(double runqUs, double overflows) {
        double[] wobble = {1.0, 1.02, 0.98, 1.01, 0.99};
        List<SampleRecord> samples = new ArrayList<>();
        for (int i = 0; i < wobble.length; i++) {
            SampleRecord plain = Records.sample(KEY, i + 1, 9000 * wobble[(i + 1) % 5], 40, 0.05 * wobble[(i + 2) % 5]);
            samples.add(new SampleRecord(plain.key(), plain.repeat(), plain.iteration(), plain.figures(), plain.open(),
                    plain.caveats(), plain.raw(), 0, 0, new Saturation(runqUs * wobble[i], runqUs / 4, 0.5 * wobble[(i + 3) % 5],
                    0, overflows, overflows, 0, Double.NaN, Double.NaN, Double.NaN)));
        }
        return samples;
    }

    @Test
    void aRunQueueWaitHalvedIsCalledAndTheOverflowsAreAFlag() {
        List<SampleRecord> a = forks(80, 120);
        List<SampleRecord> b = forks(40, 0);
        Comparison c = Comparison.of(List.of(Records.row(KEY, 9000, 40)), SamplesCsv.byStep(a),
                List.of(Records.row(KEY, 9000, 40)), SamplesCsv.byStep(b));

        Comparison.Match m = c.matched().get(0);
        Comparison.Change runq = m.change(Figure.RUNQ_WAIT);
        assertThat(runq.a()).isEqualTo(80);
        assertThat(runq.b()).isEqualTo(40);
        assertThat(runq.ratio()).isBetween(0.45, 0.55);
        assertThat(runq.verdict()).isEqualTo(Verdict.FASTER);
        assertThat(m.change(Figure.INVOLUNTARY_CS).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(m.flags()).contains("listen queue overflowed in 5 of 10 samples: its tail holds connect retries, not service time");
        assertThat(CompareWriter.table(c)).contains("runq_wait").contains("involuntary_cs");
    }

    @Test
    void runsWithoutTheReadingsCompareTheirThreeFiguresOnly() {
        List<SampleRecord> with = forks(80, 0);
        List<SampleRecord> without = with.stream().map(s -> Records.sample(s.key(), s.repeat(), s.figures().rps(),
                s.figures().latP99Ms(), s.figures().cpuMsPerReq())).toList();
        Comparison c = Comparison.of(List.of(Records.row(KEY, 9000, 40)), SamplesCsv.byStep(with),
                List.of(Records.row(KEY, 9000, 40)), SamplesCsv.byStep(without));
        assertThat(c.matched().get(0).changes()).extracting(Comparison.Change::figure)
                .containsExactlyElementsOf(Comparison.MEASURED);
        assertThat(c.matched().get(0).flags()).noneMatch(f -> f.contains("listen"));
    }
}
