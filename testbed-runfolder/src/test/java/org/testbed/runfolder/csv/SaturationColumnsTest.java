package org.testbed.runfolder.csv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.report.ReportWriter;

/** The server's saturation readings: one set of columns, carried by steps.csv and samples.csv, read back as written. */
class SaturationColumnsTest {
    private static final Saturation QUEUED = new Saturation(85.25, 40.5, 0.5123, 3, 120, 124, 7, 1.5, 30, 350.5);

    @Test
    void stepsAndSamplesCarryTheSameColumnsAndReadThemBack(@TempDir Path dir) throws Exception {
        List<String> names = Saturation.COLUMNS.stream().map(Column::name).toList();
        assertThat(StepsCsv.TABLE.names()).containsSubsequence(names);
        assertThat(SamplesCsv.TABLE.names()).containsSubsequence(names);

        StepRecord plain = Records.step(Records.row(Records.closed("servlet-tomcat-sync", "mix", 256), 9000, 40), 10);
        StepRecord step = new StepRecord(plain.key(), plain.driver(), new StepRecord.ServerSide(100, 212, QUEUED),
                plain.load(), plain.setup(), plain.files(), plain.repeats(), plain.steadiness(), plain.open(), plain.cost());
        Path steps = dir.resolve(StepsCsv.FILE);
        StepsCsv.TABLE.write(steps, List.of(step));
        assertThat(StepsCsv.TABLE.read(steps)).singleElement()
                .satisfies(s -> assertThat(s.server().saturation()).isEqualTo(QUEUED))
                .satisfies(s -> assertThat(s.server().listenOverflowSamples()).as("a sample counts its own overflow").isEqualTo(1));

        SampleRecord sample = new SampleRecord(step.key(), 1, 1, new SampleRecord.Figures(9000, 40, 0.05, 0),
                StepRecord.OpenModel.CLOSED, SampleRecord.Caveats.none(10), "raw/x.txt", 0, 0, QUEUED);
        Path samples = dir.resolve(SamplesCsv.FILE);
        SamplesCsv.TABLE.write(samples, List.of(sample));
        assertThat(SamplesCsv.TABLE.read(samples)).containsExactly(sample);
    }

    @Test
    void aStepWithoutTheReadingsWritesThemEmptyAndAnOlderFileReadsAsUnknown(@TempDir Path dir) throws Exception {
        StepRecord plain = Records.step(Records.row(Records.closed("vertx", "mix", 64), 20000, 2.5), 10);
        Path steps = dir.resolve(StepsCsv.FILE);
        StepsCsv.TABLE.write(steps, List.of(plain));
        List<List<String>> lines = Csv.parse(Files.readString(steps));
        int first = lines.get(0).indexOf("runq_wait_us_per_req");
        assertThat(lines.get(1).get(first)).isEmpty();
        assertThat(lines.get(1).get(lines.get(0).indexOf("threads_ended"))).isEqualTo("0");

        Path old = dir.resolve("old.csv");
        Files.writeString(old, Csv.line(lines.get(0).subList(0, first)) + Csv.line(lines.get(1).subList(0, first)));
        assertThat(StepsCsv.TABLE.read(old)).singleElement()
                .satisfies(s -> assertThat(s.server().saturation().known()).isFalse());
    }

    @Test
    void aStepCountsItsSamplesWhoseListenQueueOverflowedInAColumnAfterTheOlderOnes(@TempDir Path dir) throws Exception {
        StepRecord plain = Records.step(Records.row(Records.open("servlet-tomcat-virtual", "delay", 5000), 5000, 1595), 10);
        StepRecord step = new StepRecord(plain.key(), plain.driver(), new StepRecord.ServerSide(100, 40, QUEUED),
                plain.load(), plain.setup(), plain.files(), plain.repeats(), plain.steadiness(), plain.open(), plain.cost())
                .withListenOverflowSamples(2);
        Path steps = dir.resolve(StepsCsv.FILE);
        StepsCsv.TABLE.write(steps, List.of(step, plain));
        List<List<String>> lines = Csv.parse(Files.readString(steps));
        int at = lines.get(0).indexOf("listen_overflow_samples");
        assertThat(at).as("after the columns steps.csv had before it").isGreaterThan(lines.get(0).indexOf("cost_per_million_ci_high"));
        assertThat(lines.get(1).get(at)).isEqualTo("2");
        assertThat(lines.get(2).get(at)).isEqualTo("0");
        assertThat(StepsCsv.TABLE.read(steps)).extracting(s -> s.server().listenQueueOverflowed()).containsExactly(true, false);
        assertThat(Saturation.UNKNOWN.listenQueueOverflowed()).as("no reading is no overflow").isFalse();
    }

    @Test
    void theReportsRowsCarryThemUnderTheirColumnNames() {
        StepRecord plain = Records.step(Records.row(Records.closed("servlet-tomcat-sync", "mix", 256), 9000, 40), 10);
        StepRecord step = new StepRecord(plain.key(), plain.driver(), new StepRecord.ServerSide(100, 212, QUEUED),
                plain.load(), plain.setup(), plain.files(), plain.repeats(), plain.steadiness(), plain.open(), plain.cost());
        var rows = ReportWriter.rowsJson(List.of(Records.row(plain.key(), 9000, 40)), List.of(step));
        var s = rows.get(0).path("step");
        assertThat(s.path("runq_wait_pct").asDouble()).isEqualTo(40.5);
        assertThat(s.path("listen_overflows").asDouble()).isEqualTo(120);
        assertThat(s.path("cpu_throttled_ms").asDouble()).isEqualTo(350.5);
        assertThat(s.path("involuntary_cs_per_req").asDouble()).isEqualTo(0.5123);
    }
}
