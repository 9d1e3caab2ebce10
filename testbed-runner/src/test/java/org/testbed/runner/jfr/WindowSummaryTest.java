package org.testbed.runner.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.variant.Jdks;

/**
 * The summary of a real recording: {@link RecordedWorkload} records itself in a JVM of JDK 21 or
 * later (the build's JDK 17 has no virtual threads to pin) with the settings the runner uses, and
 * the summariser, on this JVM, must find inside the window what the workload did there and nothing
 * of what it did before and after.
 */
class WindowSummaryTest {
    @TempDir
    static Path dir;
    private static Path recording;
    private static Instant windowStart;
    private static Instant windowEnd;

    @BeforeAll
    static void record() throws Exception {
        Path java = Jdks.javaFor(21).orElseThrow(() -> new IllegalStateException(Jdks.missing(21)));
        recording = dir.resolve("workload.jfr");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                RecordedWorkload.class.getName(), recording.toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the workload ended: %s", output).isTrue();
        assertThat(p.exitValue()).as("the workload's exit status: %s", output).isZero();
        windowStart = Instant.parse(line(output, "window-start="));
        windowEnd = Instant.parse(line(output, "window-end="));
    }

    private static String line(String output, String prefix) {
        return output.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow().substring(prefix.length());
    }

    @Test
    void findsThePinsInsideTheWindowOnly() throws IOException {
        WindowSummary inside = WindowSummary.of(recording, windowStart, windowEnd);
        assertThat(inside.pinned()).as("a JDK 21+ recording has the event").isNotNull();
        assertThat(inside.pinned().count()).isEqualTo(RecordedWorkload.PINS_INSIDE);
        assertThat(inside.pinned().longestMs()).isGreaterThanOrEqualTo(Pinning.PIN_MILLIS - 1).isLessThan(2000);
        assertThat(inside.pinned().totalMs()).isGreaterThanOrEqualTo(RecordedWorkload.PINS_INSIDE * (Pinning.PIN_MILLIS - 1));

        WindowSummary whole = WindowSummary.of(recording, windowStart.minusSeconds(60), windowEnd.plusSeconds(60));
        assertThat(whole.pinned().count()).isEqualTo(RecordedWorkload.PINS_INSIDE + 4);
    }

    @Test
    void findsTheContendedMonitorByItsClass() throws IOException {
        WindowSummary inside = WindowSummary.of(recording, windowStart, windowEnd);
        assertThat(inside.monitors()).isNotEmpty();
        WindowSummary.Monitor top = inside.monitors().get(0);
        assertThat(top.className()).isEqualTo(RecordedWorkload.Contended.class.getName());
        assertThat(top.count()).isEqualTo(1);
        // The waiter came 10 ms into the 100 ms hold: it waited the rest, give or take a busy machine's scheduling.
        assertThat(top.totalMs()).isGreaterThan(50).isLessThan(2000);
    }

    @Test
    void findsTheCollectionsPausesAndSafepointsAndTheAllocation() throws IOException {
        WindowSummary inside = WindowSummary.of(recording, windowStart, windowEnd);
        // Two System.gc() calls: each at least one stop-the-world pause, each pause inside a safepoint.
        assertThat(inside.gcPauses().count()).isGreaterThanOrEqualTo(2);
        assertThat(inside.gcPauses().totalMs()).isPositive().isGreaterThanOrEqualTo(inside.gcPauses().longestMs());
        assertThat(inside.safepoints().count()).isGreaterThanOrEqualTo(2);
        assertThat(inside.safepoints().totalMs()).isGreaterThanOrEqualTo(inside.gcPauses().longestMs());
        // The statistics are taken at the recording's start and stop: the 200 MB and the JVM's own, little besides.
        assertThat(inside.allocatedBytes()).isGreaterThanOrEqualTo(RecordedWorkload.ALLOCATED_BYTES)
                .isLessThan(4.0 * RecordedWorkload.ALLOCATED_BYTES);
        assertThat(inside.allocationS()).isPositive();
        assertThat(inside.windowS()).isCloseTo((windowEnd.toEpochMilli() - windowStart.toEpochMilli()) / 1000.0, within(0.002));
    }

    @Test
    void nothingOutsideTheRecordingIsInItsWindow() throws IOException {
        WindowSummary before = WindowSummary.of(recording, windowStart.minusSeconds(3600), windowStart.minusSeconds(3599));
        assertThat(before.pinned().count()).isZero();
        assertThat(before.gcPauses().count()).isZero();
        assertThat(before.monitors()).isEmpty();
    }

    @Test
    void becomesTheSamplesRowOfJfrCsv() throws IOException {
        WindowSummary inside = WindowSummary.of(recording, windowStart, windowEnd);
        ResultRow.StepKey key = new ResultRow.StepKey("v", "delay", 16, 0, Conditions.PLAIN);
        JfrRecord row = inside.record(key, 2, 1, 1000, "raw/v/delay-c0016.jfr");
        assertThat(row.pinned().count()).isEqualTo(RecordedWorkload.PINS_INSIDE);
        assertThat(row.pinnedPerRequest()).isEqualTo(RecordedWorkload.PINS_INSIDE / 1000.0);
        assertThat(row.allocationKbPerReq()).isCloseTo(inside.allocatedBytes() / 1e3 / 1000, within(1e-9));
        assertThat(row.monitors()).startsWith(RecordedWorkload.Contended.class.getName() + " ");
        assertThat(RecordingLine.headline(row)).contains("pinned 3 times").contains("longest")
                .contains("contended monitors: " + RecordedWorkload.Contended.class.getName());
        assertThat(List.of(row.repeat(), row.iteration())).containsExactly(2, 1);
    }
}
