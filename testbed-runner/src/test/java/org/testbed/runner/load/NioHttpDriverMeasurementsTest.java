package org.testbed.runner.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.runner.load.PlaintextServer.plaintext;

import java.time.Duration;
import java.util.stream.DoubleStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Per-second windows, and the open model's two latencies and schedule lag. */
class NioHttpDriverMeasurementsTest {
    private PlaintextServer server;

    @BeforeEach
    void start() throws Exception {
        server = new PlaintextServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static NioHttpDriver driver(int maxConnections) {
        return new NioHttpDriver(Duration.ofSeconds(5), maxConnections);
    }

    private static long sum(long[] counts) {
        return LongStream.of(counts).sum();
    }

    @Test
    void closedModelWindowsAddUpToTheRequestsCounted() throws Exception {
        LoadResult r = driver(64).run(server.target(), plaintext(), Level.closed(2), Duration.ofSeconds(2), 1);
        assertThat(r.requests()).isGreaterThan(20);
        assertThat(r.perSecond()).hasSize(2);
        assertThat(LongStream.of(r.perSecond()).min().orElse(0)).isPositive();
        assertThat(sum(r.perSecond())).isEqualTo(r.requests());
        assertThat(r.windowRps()).containsExactly(r.perSecond()[0], r.perSecond()[1]);
        assertThat(r.raw()).contains("requests per second of the window: " + r.perSecond()[0] + " " + r.perSecond()[1]);
    }

    @Test
    void openModelWindowsHoldTheOfferedRateEachSecond() throws Exception {
        LoadResult r = driver(64).run(server.target(), plaintext(), Level.open(200), Duration.ofMillis(2500), 1);
        assertThat(r.seconds()).isEqualTo(2.5);
        assertThat(r.perSecond()).hasSize(3);
        assertThat(sum(r.perSecond())).isEqualTo(r.requests());
        assertThat(r.requests()).isBetween(480L, 501L);
        // Arrivals are on schedule; a response that comes late may count in the next window.
        assertThat(r.perSecond()[0]).isBetween(170L, 230L);
        assertThat(r.perSecond()[1]).isBetween(170L, 230L);
        assertThat(r.perSecond()[2]).isBetween(70L, 130L); // half a second
        assertThat(DoubleStream.of(r.windowRps())).allSatisfy(rps -> assertThat(rps).isBetween(140.0, 260.0));
    }

    @Test
    void closedModelLatencyIsItsOwnUncorrectedLatencyWithoutLag() throws Exception {
        LoadResult r = driver(64).run(server.target(), plaintext(), Level.closed(2), Duration.ofMillis(500), 1);
        assertThat(r.requests()).isPositive();
        assertThat(r.uncorrected()).isEqualTo(r.latency());
        assertThat(r.scheduleLagP99Ms()).isZero();
        assertThat(r.scheduleLagMaxMs()).isZero();
    }

    @Test
    void openModelUncorrectedLatencyIsNeverAboveTheLatencyFromTheIntendedStart() throws Exception {
        LoadResult r = driver(64).run(server.target(), plaintext(), Level.open(300), Duration.ofSeconds(1), 1);
        assertThat(r.requests()).isGreaterThan(250);
        assertThat(r.uncorrected().p50()).isPositive().isLessThanOrEqualTo(r.latency().p50());
        assertThat(r.uncorrected().p99()).isLessThanOrEqualTo(r.latency().p99());
        assertThat(r.uncorrected().max()).isLessThanOrEqualTo(r.latency().max());
        assertThat(r.scheduleLagP99Ms()).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(r.scheduleLagMaxMs());
        assertThat(r.raw()).contains("latency from the actual send ms (uncorrected):")
                .contains("schedule lag ms (actual send - intended start):")
                .contains("HdrHistogram percentile distribution of the latency from the actual send")
                .contains("HdrHistogram percentile distribution of the schedule lag");
    }

    @Test
    void againstAnOverloadedTargetTheCorrectedLatencyShowsTheWaitThatTheUncorrectedHides() throws Exception {
        server.slowMillis = 20; // one server thread: at most ~50 responses per second
        // One connection: arrivals at twice the capacity wait in the driver's queue, behind schedule.
        LoadResult r = driver(1).run(server.target(), plaintext(), Level.open(100), Duration.ofSeconds(2), 1);
        assertThat(r.errors()).isZero();
        assertThat(r.peakConnections()).isEqualTo(1);
        assertThat(r.uncorrected().p99()).isLessThan(250);
        assertThat(r.latency().p99()).isGreaterThan(500).isGreaterThan(r.uncorrected().p99() + 300);
        assertThat(r.scheduleLagP99Ms()).isGreaterThan(300);
        assertThat(r.scheduleLagMaxMs()).isGreaterThanOrEqualTo(r.scheduleLagP99Ms());
    }
}
