package org.testbed.runfolder.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow.StepKey;
import org.testbed.runfolder.figure.Figure;

/** A probe's figures get their columns from their declaration, and read back as written. */
class MeasuredTest {
    private static final StepKey KEY = Records.closed("vertx", "mix", 64);

    @Test
    void samplesCsvCarriesTheProbesFiguresAfterItsOwnColumns(@TempDir Path dir) throws Exception {
        String[] probed = {"bytes_in", "bytes_out", "recovery", "unrecovered", "fault_status", "fault_timeouts",
                "fault_connection", "wrong", "unfinished", "server_speed", "load_speed"};
        assertThat(SamplesCsv.TABLE.names()).endsWith(probed);
        assertThat(StepsCsv.TABLE.names()).endsWith(probed);
        SampleRecord s = Records.sample(KEY, 1, 9000, 4.0, 0.05);
        SampleRecord measured = new SampleRecord(s.key(), s.repeat(), s.iteration(), s.figures(), s.open(), s.caveats(), s.raw(),
                0, 0, s.saturation(), new Measured(Map.of(Figure.BYTES_IN, 160.0, Figure.BYTES_OUT, 10_345.25)));
        Path file = dir.resolve(SamplesCsv.FILE);
        SamplesCsv.TABLE.write(file, List.of(measured, s));
        List<SampleRecord> back = SamplesCsv.TABLE.read(file);
        assertThat(back.get(0).figure(Figure.BYTES_OUT)).as("in its declared digits").isEqualTo(10_345.3);
        assertThat(back.get(0).measured().has(Figure.BYTES_IN)).isTrue();
        assertThat(back.get(1).measured()).as("a sample no probe measured").isEqualTo(Measured.NONE);
        assertThat(back.get(1).figure(Figure.BYTES_OUT)).isNaN();
        assertThat(back.get(0).figure(Figure.RPS)).as("a figure of the record's own columns").isEqualTo(9000);
    }

    @Test
    void aStepsFigureIsTheMedianOfTheSamplesThatMeasuredIt() {
        Measured step = Measured.median(List.of(Measured.of(Figure.BYTES_OUT, 100), Measured.of(Figure.BYTES_OUT, 300),
                Measured.of(Figure.BYTES_OUT, 120), Measured.NONE));
        assertThat(step.get(Figure.BYTES_OUT)).isEqualTo(120);
        assertThat(step.has(Figure.BYTES_IN)).isFalse();
    }

    @Test
    void onlyAProbesFigureIsMeasuredAndNotANumberIsNotMeasured() {
        assertThatThrownBy(() -> Measured.of(Figure.RPS, 1)).hasMessageContaining("rps is not a probe's figure");
        assertThat(Measured.of(Figure.BYTES_IN, Double.NaN)).isEqualTo(Measured.NONE);
        assertThat(Measured.of(Figure.BYTES_IN, 1).and(Measured.of(Figure.BYTES_OUT, 2)).values()).hasSize(2);
    }
}
