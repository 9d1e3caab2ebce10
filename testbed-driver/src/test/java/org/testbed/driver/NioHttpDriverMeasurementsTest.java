package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.driver.PlaintextServer.plaintext;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.DoubleStream;
import java.util.stream.LongStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Per-second windows, stopping early, and the open model's two latencies and schedule lag. */
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
        // The window counts every answer in it, so arrivals of the lead-in still in flight when it opens count
        // too: a few at this rate, about ten when a busy machine holds the loop back 50 ms (200/s x 0.05 s).
        assertThat(r.requests()).isBetween(480L, 511L);
        // Arrivals are on schedule; a response that comes late may count in the next window.
        assertThat(r.perSecond()[0]).isBetween(170L, 230L);
        assertThat(r.perSecond()[1]).isBetween(170L, 230L);
        assertThat(r.perSecond()[2]).isBetween(70L, 130L); // half a second
        assertThat(DoubleStream.of(r.windowRps())).allSatisfy(rps -> assertThat(rps).isBetween(140.0, 260.0));
    }

    @Test
    void stopsSoonAfterTheWatcherSaysSoAndReportsTheTimeRun() throws Exception {
        List<long[]> seen = new CopyOnWriteArrayList<>();
        AtomicLong saidStop = new AtomicLong();
        long began = System.nanoTime();
        LoadResult r = driver(64).run(server.target(), plaintext(), Level.closed(2), Duration.ofSeconds(20), 1,
                completed -> {
                    seen.add(completed);
                    if (completed.length == 2) {
                        saidStop.set(System.nanoTime());
                        return true;
                    }
                    return false;
                });
        long returned = System.nanoTime();
        assertThat(seen).extracting(completed -> completed.length).containsExactly(1, 2);
        assertThat((returned - saidStop.get()) / 1e9).isLessThan(2.0);
        assertThat((returned - began) / 1e9).isLessThan(10.0);
        assertThat(r.seconds()).isGreaterThanOrEqualTo(2.0).isLessThan(3.0);
        assertThat(r.perSecond()).hasSize(3);
        assertThat(sum(r.perSecond())).isEqualTo(r.requests());
        // What the watcher saw of each whole second is what the result counts (give or take a straggler).
        long[] atStop = seen.get(1);
        for (int i = 0; i < 2; i++) {
            assertThat(atStop[i]).isPositive().isLessThanOrEqualTo(r.perSecond()[i]);
            assertThat(atStop[i]).isGreaterThan(r.perSecond()[i] * 9 / 10);
        }
        assertThat(r.rps()).isCloseTo(r.requests() / r.seconds(), Offset.offset(1e-6));
        assertThat(r.raw()).contains("stopped early, at most 20.000 s");
        assertThat(server.served.get()).isGreaterThanOrEqualTo((int) r.requests());
    }

    @Test
    void anOpenModelStoppedEarlySendsNoMoreArrivals() throws Exception {
        LoadResult r = driver(64).run(server.target(), plaintext(), Level.open(200), Duration.ofSeconds(20), 1,
                completed -> true);
        assertThat(r.seconds()).isGreaterThanOrEqualTo(1.0).isLessThan(2.0);
        // (plus the lead-in's arrivals still in flight when the window opened, as in the test above)
        assertThat(r.requests()).isBetween(190L, (long) (200 * r.seconds()) + 11);
        int servedAtReturn = server.served.get();
        Thread.sleep(300);
        assertThat(server.served.get()).isEqualTo(servedAtReturn);
    }

    @Test
    void aWatcherThatNeverStopsRunsTheWholeDuration() throws Exception {
        List<Integer> calls = new CopyOnWriteArrayList<>();
        LoadResult r = driver(64).run(server.target(), plaintext(), Level.closed(1), Duration.ofSeconds(2), 1,
                completed -> calls.add(completed.length) && false);
        assertThat(r.seconds()).isEqualTo(2.0);
        assertThat(r.perSecond()).hasSize(2);
        assertThat(calls).containsExactly(1);
        assertThat(r.raw()).doesNotContain("stopped early");
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
        server.slowMillis = 20; // one server thread: a few dozen responses per second at most
        // One connection: arrivals at more than the capacity wait in the driver's queue, behind schedule;
        // the lead-in's backlog is still ahead of the window's arrivals when the window opens.
        LoadResult r = driver(1).run(server.target(), plaintext(), Level.open(100), Duration.ofSeconds(2), 1);
        assertThat(r.errors()).isZero();
        assertThat(r.peakConnections()).isEqualTo(1);
        assertThat(r.requests()).as("answers in the window, to the lead-in's arrivals too").isPositive();
        assertThat(r.uncorrected().p99()).isLessThan(250);
        // The window's arrivals without an answer count at their wait so far: the p99 is seconds, not 0.
        assertThat(r.latency().p99()).isGreaterThan(500).isGreaterThan(r.uncorrected().p99() + 300);
        assertThat(r.raw()).containsPattern("window_arrivals_unanswered=[1-9][0-9]+ ");
    }

    @Test
    void anOpenStepThatKeepsUpLeavesNoArrivalOfItsWindowUnanswered() throws Exception {
        LoadResult r = driver(64).run(server.target(), plaintext(), Level.open(200), Duration.ofSeconds(1), 1);
        assertThat(r.errors()).isZero();
        assertThat(r.requests()).isBetween(150L, 250L);
        assertThat(r.raw()).contains("window_arrivals_unanswered=0 ")
                .contains("Arrivals began 1.0 s before the window, unmeasured");
    }
}
