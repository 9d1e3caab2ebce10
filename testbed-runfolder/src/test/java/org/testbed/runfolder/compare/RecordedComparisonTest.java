package org.testbed.runfolder.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.gate.FailOn;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.figure.Figure;

/** Pinned virtual threads and GC pauses per request compared from jfr.csv, when both runs were recorded. */
class RecordedComparisonTest {
    private static final ResultRow.StepKey KEY = Records.closed("servlet-tomcat-virtual", "delay", 64);
    private static final double[] WOBBLE = {1.0, 1.03, 0.97, 1.02, 0.98};

    private static List<SampleRecord> samples() {
        List<SampleRecord> samples = new ArrayList<>();
        for (int i = 0; i < WOBBLE.length; i++) {
            samples.add(Records.sample(KEY, i + 1, 400 * WOBBLE[i], 160, 0.4 * WOBBLE[(i + 1) % 5]));
        }
        return samples;
    }

    /** Five forks of 1000 requests, each pinned {@code pins} times for 40 ms and paused {@code pauseMs} by the GC, give or take 3 %. */
    private static List<JfrRecord> recorded(double pins, double pauseMs) {
        List<JfrRecord> records = new ArrayList<>();
        for (int i = 0; i < WOBBLE.length; i++) {
            double n = Math.rint(pins * WOBBLE[i]);
            records.add(new JfrRecord(KEY, i + 1, 1, 1000, 3.0, new JfrRecord.Events(n, 40 * n, n > 0 ? 40 : 0),
                    new JfrRecord.Events(3, pauseMs * WOBBLE[(i + 2) % 5], 5), new JfrRecord.Events(10, 20, 5), 30, 12, "",
                    "raw/x.jfr"));
        }
        return records;
    }

    private static Comparison compare(List<JfrRecord> a, List<JfrRecord> b) {
        return Comparison.of(List.of(Records.row(KEY, 400, 160)), SamplesCsv.byStep(samples()), Optional.empty(), JfrCsv.byStep(a),
                List.of(Records.row(KEY, 400, 160)), SamplesCsv.byStep(samples()), Optional.empty(), JfrCsv.byStep(b));
    }

    @Test
    void pinsThatStoppedAreCalledAndGcPauseIsWeighed() {
        Comparison c = compare(recorded(100, 30), recorded(50, 30));
        Comparison.Match m = c.matched().get(0);
        Comparison.Change pinned = m.change(Figure.PINNED);
        assertThat(pinned.a()).isEqualTo(0.1);
        assertThat(pinned.b()).isEqualTo(0.05);
        assertThat(pinned.verdict()).isEqualTo(Verdict.FASTER);
        assertThat(m.change(Figure.PINNED_MS).ratio()).isBetween(0.45, 0.55);
        assertThat(m.change(Figure.GC_PAUSE).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(CompareWriter.table(c)).contains("pinned").contains("pinned_ms").contains("gc_pause");
    }

    @Test
    void aStepThatNeverPinnedComparesItsGcPausesOnly() {
        Comparison.Match m = compare(recorded(0, 30), recorded(0, 60)).matched().get(0);
        assertThat(m.find(Figure.PINNED)).isEmpty();
        assertThat(m.find(Figure.PINNED_MS)).isEmpty();
        assertThat(m.change(Figure.GC_PAUSE).verdict()).isEqualTo(Verdict.SLOWER);
    }

    @Test
    void pinsOnOneSideOnlyHaveNoNoiseEstimate() {
        Comparison.Change pinned = compare(recorded(0, 30), recorded(100, 30)).matched().get(0).change(Figure.PINNED);
        assertThat(pinned.verdict()).isEqualTo(Verdict.NO_NOISE_ESTIMATE);
    }

    @Test
    void runsNotBothRecordedHaveNoRecordedFigures() {
        Comparison c = compare(recorded(100, 30), List.of());
        assertThat(c.matched().get(0).changes()).extracting(Comparison.Change::figure)
                .doesNotContainAnyElementsOf(Comparison.RECORDED);
        assertThat(Comparison.of(List.of(Records.row(KEY, 400, 160)), Map.of(), List.of(Records.row(KEY, 400, 160)), Map.of())
                .matched().get(0).changes()).hasSize(Comparison.MEASURED.size());
    }

    @Test
    void slowerLeavesThemOutUnlessNamed() {
        assertThat(Comparison.RECORDED).noneMatch(FailOn.every()::gates);
        assertThat(Comparison.RECORDED).noneMatch(FailOn.parse(List.of("slower"))::gates);
        FailOn named = FailOn.parse(List.of("slower,pinned,gc_pause>10%"));
        assertThat(named.gates(Figure.PINNED)).isTrue();
        assertThat(named.gates(Figure.GC_PAUSE)).isTrue();
        assertThat(named.gates(Figure.PINNED_MS)).isFalse();
        Comparison c = compare(recorded(50, 30), recorded(100, 30));
        assertThat(named.outcome(c.matched().get(0).change(Figure.PINNED)).name()).isEqualTo("FAILED");
    }
}
