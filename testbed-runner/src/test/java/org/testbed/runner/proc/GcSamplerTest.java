package org.testbed.runner.proc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.timeline.GcReading;

/** The GC counters of this very JVM, read from its hsperfdata file while it collects. */
class GcSamplerTest {

    @Test
    void readingsFollowTheCollectionsOfTheJvmRead() throws Exception {
        Path file = GcCounters.perfDataFile(ProcessHandle.current().pid());
        assertThat(file).as("hsperfdata file of this JVM").isNotNull();
        GcSampler sampler = GcSampler.start(file, 10);
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        List<GcReading> readings = sampler.stop();

        assertThat(readings.size()).isGreaterThanOrEqualTo(2);
        GcReading first = readings.get(0);
        GcReading last = readings.get(readings.size() - 1);
        // The first reading is taken at the start, the last at the stop: three collections lie between.
        assertThat(last.collections() - first.collections()).isGreaterThanOrEqualTo(3);
        assertThat(last.gcMillis()).isGreaterThanOrEqualTo(first.gcMillis());
        for (int i = 1; i < readings.size(); i++) {
            assertThat(readings.get(i).atEpochMillis()).isGreaterThanOrEqualTo(readings.get(i - 1).atEpochMillis());
            assertThat(readings.get(i).collections()).isGreaterThanOrEqualTo(readings.get(i - 1).collections());
        }
    }

    @Test
    void aFileThatIsNoHsperfdataGivesNoReadings() throws Exception {
        Path junk = Files.writeString(Files.createTempFile("hsperfdata", ".junk"), "not a JVM's counters");
        try {
            GcSampler sampler = GcSampler.start(junk, 10);
            assertThat(sampler.stop()).isEmpty();
        } finally {
            Files.deleteIfExists(junk);
        }
    }
}
