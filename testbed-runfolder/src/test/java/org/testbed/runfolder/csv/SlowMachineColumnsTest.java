package org.testbed.runfolder.csv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.figure.Figure;

/** The machine's speed beside every window, and the windows a slow machine left out, as the run folder keeps them. */
class SlowMachineColumnsTest {
    private static final StepKey KEY = new StepKey("vertx", "mix", 64, 0, Conditions.PLAIN);

    private static SampleRecord sample(int repeat, double rps, double serverSpeed, boolean leftOut) {
        SampleRecord s = Records.sample(KEY, repeat, rps, 2.0, 0.03);
        return new SampleRecord(s.key(), s.repeat(), s.iteration(), s.figures(), s.open(), s.caveats(), s.raw(),
                s.tlsHandshakes(), s.gzipResponses(), s.saturation(),
                new Measured(Map.of(Figure.SERVER_SPEED, serverSpeed, Figure.LOAD_SPEED, 0.99)), leftOut);
    }

    @Test
    void aSampleKeepsItsSpeedsAndWhetherItWasLeftOut(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(SamplesCsv.FILE);
        SamplesCsv.TABLE.write(file, List.of(sample(1, 1000, 0.72, true), sample(1, 1400, 0.99, false)));
        assertThat(Files.readString(file).lines().findFirst().orElseThrow()).contains("left_out", "server_speed", "load_speed");
        List<SampleRecord> read = SamplesCsv.TABLE.read(file);
        assertThat(read).extracting(SampleRecord::leftOut).containsExactly(true, false);
        assertThat(read.get(0).figure(Figure.SERVER_SPEED)).isEqualTo(0.72);
        assertThat(read.get(1).figure(Figure.LOAD_SPEED)).isEqualTo(0.99);
    }

    @Test
    void aStepsFigureIsItsKeptSamplesOrAllWhenEveryOneRanSlow() {
        SampleRecord slow = sample(1, 1000, 0.7, true);
        SampleRecord kept = sample(2, 1400, 1.0, false);
        assertThat(SamplesCsv.kept(List.of(slow, kept))).containsExactly(kept);
        assertThat(SamplesCsv.kept(List.of(slow))).containsExactly(slow);
        assertThat(SamplesCsv.keptByStep(List.of(slow, kept)).get(KEY)).containsExactly(kept);
    }

    @Test
    void aStepCountsItsSlowWindowsAndRetakes(@TempDir Path dir) throws Exception {
        StepRecord plain = Records.step(Records.row(KEY, 1400, 2.0), 8);
        StepRecord.Steadiness s = plain.steadiness();
        StepRecord step = new StepRecord(plain.key(), plain.driver(), plain.server(), plain.load(), plain.setup(), plain.files(),
                plain.repeats(), new StepRecord.Steadiness(s.warmupS(), 0, 0, 2, 1, false), plain.open(), plain.cost(),
                plain.precision(), plain.measured());
        Path file = dir.resolve(StepsCsv.FILE);
        StepsCsv.TABLE.write(file, List.of(step));
        StepRecord read = StepsCsv.TABLE.read(file).get(0);
        assertThat(read.steadiness().slowMachineSamples()).isEqualTo(2);
        assertThat(read.steadiness().slowMachineRetakes()).isEqualTo(1);
        assertThat(read.steadiness().slowMachineFigure()).isFalse();
    }
}
