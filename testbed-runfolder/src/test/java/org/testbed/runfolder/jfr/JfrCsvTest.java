package org.testbed.runfolder.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow;

/** jfr.csv written and read back, and a step's samples folded into its median. */
class JfrCsvTest {
    private static final ResultRow.StepKey KEY = Records.closed("servlet-jetty-virtual", "delay", 16);

    private static JfrRecord sample(int repeat, double pins, double longest, String monitors) {
        return new JfrRecord(KEY, repeat, 1, 500, 3.002, new JfrRecord.Events(pins, 40 * pins, longest),
                new JfrRecord.Events(2, 7.5, 4.25), new JfrRecord.Events(9, 8.125, 4.5), 35.5, 213.75, monitors,
                "raw/servlet-jetty-virtual/delay-c0016-r" + repeat + ".jfr");
    }

    @Test
    void aRecordReadsBackAsWritten(@TempDir Path dir) throws IOException {
        Path file = dir.resolve(JfrCsv.FILE);
        JfrRecord written = sample(1, 12, 41.5, "java.lang.Object 120ms 3; com.example.Pool 40ms 1");
        JfrRecord unknown = new JfrRecord(KEY, 2, 1, 500, 3, JfrRecord.Events.UNKNOWN, JfrRecord.Events.NONE,
                JfrRecord.Events.NONE, 1, 6, "", "raw/x.jfr");
        JfrCsv.TABLE.create(file);
        JfrCsv.TABLE.append(file, written);
        JfrCsv.TABLE.append(file, unknown);
        List<JfrRecord> read = JfrCsv.TABLE.read(file);
        assertThat(read.get(0)).isEqualTo(written);
        assertThat(read.get(1).pinned().count()).as("a JDK without the event: unknown, not zero").isNaN();
        assertThat(read.get(1).pinnedPerRequest()).isNaN();
        assertThat(read.get(0).pinnedPerRequest()).isEqualTo(12 / 500.0);
        assertThat(read.get(0).gcPauseMsPerRequest()).isEqualTo(7.5 / 500);
    }

    @Test
    void theMedianTakesTheMiddleFiguresAndTheLongestOfAll() {
        List<JfrRecord> median = JfrCsv.medians(List.of(sample(1, 10, 60, "a"), sample(2, 30, 45, "c"), sample(3, 20, 50, "b")));
        assertThat(median).hasSize(1);
        JfrRecord m = median.get(0);
        assertThat(m.pinned().count()).isEqualTo(20);
        assertThat(m.pinned().longestMs()).isEqualTo(60);
        assertThat(m.requests()).isEqualTo(1500);
        assertThat(m.repeat()).as("the samples folded").isEqualTo(3);
        assertThat(m.monitors()).as("the sample of the median pinned time").isEqualTo("b");
        assertThat(m.file()).endsWith("-r3.jfr");
    }
}
