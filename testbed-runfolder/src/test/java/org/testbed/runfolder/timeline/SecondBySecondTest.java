package org.testbed.runfolder.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.testbed.runfolder.timeline.IntervalLogFile.START_MS;
import static org.testbed.runfolder.timeline.IntervalLogFile.concat;
import static org.testbed.runfolder.timeline.IntervalLogFile.times;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Interval logs written with HdrHistogram's writer, read back second by second through HdrHistogram's reader. */
class SecondBySecondTest {

    /** Second 1: 98 answers in 100 µs, one in 5 ms, one in a second: a stall's second. */
    private static final long[] STALL = concat(times(98, 100), times(1, 5_000), times(1, 1_000_000));

    @Test
    void aSecondWithKnownLatenciesGivesItsPercentilesAndBucketCounts(@TempDir Path dir) throws IOException {
        Path log = new IntervalLogFile().interval(0, 1, null, times(200, 100))
                .interval(1, 2, null, STALL)
                .interval(2, 2.5, null, times(50, 2_000))
                .write(dir.resolve("a.hlog"));

        SecondBySecond read = SecondBySecond.read(log, null);

        assertThat(read.startEpochMillis()).isEqualTo(START_MS);
        assertThat(read.seconds()).hasSize(3);
        SecondBySecond.Second stall = read.seconds().get(1);
        assertThat(stall.count()).isEqualTo(100);
        assertThat(stall.p50Ms()).isEqualTo(0.1);
        // 99 of the 100 are at most 5 ms: the p99 is the 5 ms answer (HdrHistogram's 3 digits: 5.000–5.003 ms).
        assertThat(stall.p99Ms()).isCloseTo(5.0, within(0.004));
        assertThat(stall.maxMs()).isCloseTo(1000, within(1.0));
        long[] expected = new long[LatencyBuckets.COUNT];
        expected[LatencyBuckets.of(100)] = 98;
        expected[LatencyBuckets.of(5_000)] = 1;
        expected[LatencyBuckets.of(1_000_000)] = 1;
        assertThat(stall.buckets()).containsExactly(expected);
        // Five buckets a decade from 10 µs: 100 µs opens bucket 6, 1 s is in bucket 26.
        assertThat(LatencyBuckets.of(100)).isEqualTo(6);
        assertThat(LatencyBuckets.of(99)).isEqualTo(5);
        assertThat(LatencyBuckets.of(1_000_000)).isEqualTo(26);
        assertThat(LatencyBuckets.lowerEdgeMs(6)).isCloseTo(0.1, within(1e-12));
        // The last interval is half a second: 50 answers are 100 per second.
        SecondBySecond.Second last = read.seconds().get(2);
        assertThat(last.toS()).isEqualTo(2.5);
        assertThat(last.rps()).isEqualTo(100);
        assertThat(read.seconds().get(0).rps()).isEqualTo(200);
    }

    @Test
    void histogramsOfOneSecondAddUpExactlyAndTagsAreKeptApart(@TempDir Path dir) throws IOException {
        // Two writers' histograms of second 0, and operations tagged beside the untagged total.
        long[] first = concat(times(300, 150), times(3, 40_000));
        long[] second = concat(times(100, 900), times(7, 40_000));
        Path log = new IntervalLogFile().interval(0, 1, null, first).interval(0, 1, "GET", times(10, 120))
                .interval(0, 1, null, second).interval(0, 1, "PUT", times(4, 30_000))
                .write(dir.resolve("b.hlog"));

        SecondBySecond all = SecondBySecond.read(log, null);
        SecondBySecond.Second merged = all.seconds().get(0);
        assertThat(merged.count()).isEqualTo(410);
        long[] expected = new long[LatencyBuckets.COUNT];
        for (long v : concat(first, second)) {
            expected[LatencyBuckets.of(v)]++;
        }
        assertThat(merged.buckets()).containsExactly(expected);
        assertThat(Arrays.stream(merged.buckets()).sum()).isEqualTo(merged.count());
        assertThat(merged.maxMs()).isCloseTo(40, within(0.05));

        SecondBySecond put = SecondBySecond.read(log, "PUT");
        assertThat(put.seconds().get(0).count()).isEqualTo(4);
        assertThat(put.seconds().get(0).p50Ms()).isCloseTo(30, within(0.02));
        assertThat(SecondBySecond.read(log, "DELETE").seconds()).isEmpty();
    }

    @Test
    void aSecondTheLogSkipsIsEmptyNotLeftOut(@TempDir Path dir) throws IOException {
        Path log = new IntervalLogFile().interval(0, 1, null, times(10, 100)).interval(2, 3, null, times(10, 100))
                .write(dir.resolve("c.hlog"));
        List<SecondBySecond.Second> seconds = SecondBySecond.read(log, null).seconds();
        assertThat(seconds).hasSize(3);
        assertThat(seconds.get(1).count()).isZero();
        assertThat(seconds.get(1).p99Ms()).isNaN();
        assertThat(seconds.get(1).rps()).isZero();
    }

    @Test
    void gcCountsInTheSecondOfTheReadingThatSawIt(@TempDir Path dir) throws IOException {
        Path log = new IntervalLogFile().interval(0, 1, null, times(5, 100)).interval(1, 2, null, times(5, 100))
                .interval(2, 3, null, times(5, 100)).write(dir.resolve("d.hlog"));
        SecondBySecond read = SecondBySecond.read(log, null);
        List<GcReading> readings = List.of(new GcReading(START_MS - 300, 4, 50), new GcReading(START_MS + 250, 5, 60),
                new GcReading(START_MS + 1250, 6, 72.5), new GcReading(START_MS + 1500, 6, 72.5),
                new GcReading(START_MS + 2600, 8, 100), new GcReading(START_MS + 3100, 8, 100),
                new GcReading(START_MS + 3300, 9, 130));

        double[][] gc = read.gcPerSecond(readings);

        // The readings that straddle the window's start count in second 0; those wholly after its end nowhere.
        assertThat(gc[0]).containsExactly(1, 10);
        assertThat(gc[1]).containsExactly(1, 12.5);
        assertThat(gc[2]).containsExactly(2, 27.5);
    }

    @Test
    void theReportsJsonOfASampleIsCompactAndExact(@TempDir Path dir) throws IOException {
        Path log = new IntervalLogFile().interval(0, 1, null, times(200, 100)).interval(1, 2, null, STALL)
                .write(dir.resolve("raw/vertx/mix-c0008.hlog"));
        GcReadingsCsv.TABLE.write(GcReadingsCsv.beside(log), List.of(new GcReading(START_MS, 0, 0),
                new GcReading(START_MS + 1500, 2, 31.25)));
        assertThat(GcReadingsCsv.beside(log).getFileName().toString()).isEqualTo("mix-c0008.gc.csv");

        JsonNode json = StepTimelines.sample(SecondBySecond.read(log, null), GcReadingsCsv.TABLE.read(GcReadingsCsv.beside(log)));

        assertThat(json.get("n").toString()).isEqualTo("[200,100]");
        assertThat(json.get("p50").toString()).isEqualTo("[0.1,0.1]");
        // Only the non-zero stretch of the buckets: from bucket 6 (100 µs) to bucket 26 (1 s).
        assertThat(json.get("heat").get(0).toString()).isEqualTo("[6,200]");
        JsonNode stall = json.get("heat").get(1);
        assertThat(stall.get(0).asInt()).isEqualTo(6);
        assertThat(stall.size()).isEqualTo(1 + 26 - 6 + 1);
        assertThat(stall.get(1).asLong()).isEqualTo(98);
        assertThat(stall.get(1 + 26 - 6).asLong()).isEqualTo(1);
        assertThat(json.get("gc_ms").toString()).isEqualTo("[0.0,31.25]");
        assertThat(json.get("gc_n").toString()).isEqualTo("[0,2]");
        assertThat(StepTimelines.bucketEdges().get(26).asDouble()).isEqualTo(1000.0);
    }

    @Test
    void aMissingOrBrokenLogIsAClearError(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> SecondBySecond.read(dir.resolve("none.hlog"), null)).hasMessageContaining("no interval log");
        Path broken = Files.writeString(dir.resolve("broken.hlog"), "#[StartTime: 1.0 (seconds since epoch)]\n0.0,1.0,1.0,notbase64\n");
        assertThatThrownBy(() -> SecondBySecond.read(broken, null)).isInstanceOf(IOException.class).hasMessageContaining("broken.hlog");
    }
}
