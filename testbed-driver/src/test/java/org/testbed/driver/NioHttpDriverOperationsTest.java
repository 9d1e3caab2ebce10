package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.testbed.driver.PlaintextServer.mix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.driver.LoadResult.OperationFigures;
import org.testbed.scenario.Mix;

/**
 * Per-operation figures and the interval log, against the test server's item routes: a mix of reads
 * (GET) and updates (POST), the updates made slow by the server.
 */
class NioHttpDriverOperationsTest {
    /** Reads and updates, half and half: the only item routes the test server answers as the contract does. */
    private static final Mix READS_AND_UPDATES = new Mix(50, 50, 0, 0);
    private static final String UNTAGGED = "";

    private PlaintextServer server;

    @BeforeEach
    void start() throws IOException {
        server = new PlaintextServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static NioHttpDriver driver() {
        return new NioHttpDriver(Duration.ofSeconds(5), 64);
    }

    @Test
    void eachOperationHasItsOwnLatencyAndTheirRequestsAddUpToTheStep() throws Exception {
        server.slowUpdateMillis = 20;
        // One user, so that a read never waits behind an update on the server's one thread.
        LoadResult r = driver().run(server.target(), mix(READS_AND_UPDATES), Level.closed(1), Duration.ofSeconds(2), 1);
        assertThat(r.errors()).isZero();
        assertThat(r.operations()).extracting(OperationFigures::name).containsExactly("GET", "POST");
        OperationFigures get = r.operations().get(0);
        OperationFigures post = r.operations().get(1);
        assertThat(get.requests()).isGreaterThan(10);
        assertThat(post.requests()).isGreaterThan(10);
        assertThat(get.requests() + post.requests()).isEqualTo(r.requests());
        assertThat(get.errors() + post.errors()).isZero();
        assertThat(get.rps() + post.rps()).isCloseTo(r.rps(), Offset.offset(1e-6));
        // The updates' 20 ms, in theirs only. (Not an absolute bound on the reads': the JDK's server
        // sends a response's body after its headers, and with Nagle's algorithm the body waits for
        // the client's delayed ACK, some 40 ms, whatever the request.)
        assertThat(post.latency().p50()).isGreaterThanOrEqualTo(20.0);
        assertThat(post.latency().p50() - get.latency().p50()).isGreaterThanOrEqualTo(15.0);
        assertThat(r.latency().p50()).isBetween(get.latency().p50(), post.latency().p50());
        assertThat(Math.max(get.latency().max(), post.latency().max())).isEqualTo(r.latency().max());
        assertThat(r.raw()).contains("operation GET: requests=" + get.requests() + " errors=0")
                .contains("operation POST: requests=" + post.requests() + " errors=0");
    }

    @Test
    void aSingleRouteIsOneOperationNamedAfterIt() throws Exception {
        LoadResult r = driver().run(server.target(), PlaintextServer.plaintext(), Level.closed(2), Duration.ofMillis(500), 1);
        assertThat(r.operations()).singleElement().satisfies(o -> {
            assertThat(o.name()).isEqualTo("plaintext");
            assertThat(o.requests()).isEqualTo(r.requests()).isPositive();
            assertThat(o.latency()).isEqualTo(r.latency());
        });
        assertThat(r.raw()).doesNotContain("operation plaintext:");
    }

    @Test
    void theIntervalLogHoldsEverySecondOfEveryOperation(@TempDir Path dir) throws Exception {
        // Two users on two event loops: each second of the log is the two loops' merged.
        LoadResult r = driver().run(server.target(), mix(READS_AND_UPDATES), Level.closed(2), Duration.ofSeconds(3), 2);
        assertThat(r.errors()).isZero();
        Path file = dir.resolve("mix-c0002.hlog");
        r.intervals().write(file, List.of("variant test, scenario mix, level c=2"));

        Map<String, List<AbstractHistogram>> log = read(file);
        assertThat(log).containsOnlyKeys(UNTAGGED, "GET", "POST");
        long start = r.intervals().startEpochMillis();
        for (List<AbstractHistogram> intervals : log.values()) {
            assertThat(intervals).hasSize(3);
            for (int i = 0; i < intervals.size(); i++) {
                // (the reader computes them in floating-point seconds: to the millisecond, give or take one)
                assertThat(intervals.get(i).getStartTimeStamp()).isCloseTo(start + 1000L * i, Offset.offset(1L));
                assertThat(intervals.get(i).getEndTimeStamp()).isCloseTo(start + 1000L * (i + 1), Offset.offset(1L));
            }
        }
        // A second's histogram counts what that second's requests did, and the log all of the step's.
        assertThat(log.get(UNTAGGED).stream().mapToLong(AbstractHistogram::getTotalCount).toArray())
                .containsExactly(r.perSecond());
        assertThat(count(log.get(UNTAGGED))).isEqualTo(r.requests());
        for (OperationFigures o : r.operations()) {
            assertThat(count(log.get(o.name()))).as(o.name()).isEqualTo(o.requests());
        }
        assertThat(Files.readString(file)).startsWith("#variant test, scenario mix, level c=2\n")
                .contains("#[StartTime: ").contains("\nTag=GET,0.000,1.000,").contains("\nTag=POST,2.000,1.000,");
    }

    @Test
    void anOpenModelsLogAlsoHoldsTheLatencyFromTheWrite(@TempDir Path dir) throws Exception {
        // Updates 5 ms slow at 100 arrivals a second: an arrival that finds every open connection busy
        // waits for one to open or come free, and every request is written a little after its intended
        // start; its latency from the write leaves both out.
        server.slowUpdateMillis = 5;
        LoadResult r = driver().run(server.target(), mix(READS_AND_UPDATES), Level.open(100), Duration.ofSeconds(2), 1);
        Path file = dir.resolve("mix-r100.hlog");
        r.intervals().write(file, List.of("open"));

        Map<String, List<AbstractHistogram>> log = read(file);
        assertThat(log).containsOnlyKeys(UNTAGGED, "GET", "POST", IntervalLog.SENT, IntervalLog.sentTag("GET"),
                IntervalLog.sentTag("POST"));
        Histogram all = new Histogram(3);
        Histogram sent = new Histogram(3);
        for (int i = 0; i < log.get(UNTAGGED).size(); i++) {
            AbstractHistogram second = log.get(UNTAGGED).get(i);
            AbstractHistogram fromWrite = log.get(IntervalLog.SENT).get(i);
            // Every answered request is in both, its latency from the write no longer than from its intended
            // start; an arrival still unanswered at the end is in the first only, at its wait so far.
            assertThat(fromWrite.getTotalCount()).isLessThanOrEqualTo(second.getTotalCount());
            for (double pct : new double[] {50, 90, 99, 100}) {
                assertThat(fromWrite.getValueAtPercentile(pct)).as("second %d, p%s", i, pct)
                        .isLessThanOrEqualTo(second.getValueAtPercentile(pct));
            }
            assertThat(log.get(IntervalLog.sentTag("GET")).get(i).getTotalCount()
                    + log.get(IntervalLog.sentTag("POST")).get(i).getTotalCount()).isEqualTo(fromWrite.getTotalCount());
            all.add(second);
            sent.add(fromWrite);
        }
        assertThat(sent.getTotalCount()).isPositive();
        assertThat(sent.getValueAtPercentile(99) / 1000.0).as("the log's own p99 from the write is the step's")
                .isCloseTo(r.uncorrected().p99(), within(0.01 * r.uncorrected().p99()));
        assertThat(all.getMean()).as("waits for the connection are in the intended start's latency only")
                .isGreaterThan(sent.getMean());
    }

    @Test
    void twoLogsAddUpToBothSteps(@TempDir Path dir) throws Exception {
        LoadResult fast = driver().run(server.target(), mix(READS_AND_UPDATES), Level.closed(1), Duration.ofSeconds(1), 1);
        server.slowUpdateMillis = 20;
        LoadResult slow = driver().run(server.target(), mix(READS_AND_UPDATES), Level.closed(1), Duration.ofSeconds(1), 1);
        fast.intervals().write(dir.resolve("fast.hlog"), List.of("fast"));
        slow.intervals().write(dir.resolve("slow.hlog"), List.of("slow"));

        Map<String, Histogram> merged = new LinkedHashMap<>();
        for (String name : List.of("fast.hlog", "slow.hlog")) {
            read(dir.resolve(name)).forEach((tag, intervals) ->
                    intervals.forEach(h -> merged.computeIfAbsent(tag, t -> new Histogram(3)).add(h)));
        }
        assertThat(merged.get(UNTAGGED).getTotalCount()).isEqualTo(fast.requests() + slow.requests());
        for (int i = 0; i < 2; i++) {
            OperationFigures f = fast.operations().get(i);
            OperationFigures s = slow.operations().get(i);
            Histogram h = merged.get(f.name());
            assertThat(h.getTotalCount()).as(f.name()).isEqualTo(f.requests() + s.requests());
            assertThat(h.getMaxValue() / 1000.0).isEqualTo(Math.max(f.latency().max(), s.latency().max()));
            assertThat(h.getValueAtPercentile(50) / 1000.0)
                    .isBetween(Math.min(f.latency().p50(), s.latency().p50()), Math.max(f.latency().p50(), s.latency().p50()));
        }
    }

    /** The intervals of an interval log by tag ({@link #UNTAGGED} for the untagged ones), in order. */
    static Map<String, List<AbstractHistogram>> read(Path file) throws IOException {
        Map<String, List<AbstractHistogram>> byTag = new LinkedHashMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                byTag.computeIfAbsent(h.getTag() == null ? UNTAGGED : h.getTag(), t -> new ArrayList<>())
                        .add((AbstractHistogram) h);
            }
        }
        return byTag;
    }

    private static long count(List<AbstractHistogram> intervals) {
        return intervals.stream().mapToLong(AbstractHistogram::getTotalCount).sum();
    }
}
