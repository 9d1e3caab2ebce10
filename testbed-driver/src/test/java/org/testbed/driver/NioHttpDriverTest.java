package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The driver against the JDK's own HTTP server on loopback: counts, checks, both load models. */
class NioHttpDriverTest {
    private PlaintextServer server;

    @BeforeEach
    void start() throws IOException {
        server = new PlaintextServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Target target() {
        return server.target();
    }

    @Test
    void closedModelKeepsEveryUserBusyAndVerifiesResponses() throws Exception {
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), PlaintextServer.plaintext(), Level.closed(4),
                Duration.ofSeconds(1), 1);
        assertThat(r.requests()).isGreaterThan(20);
        assertThat(r.errors()).isZero();
        assertThat(r.seconds()).isEqualTo(1.0);
        assertThat(r.latency().p50()).isPositive().isLessThanOrEqualTo(r.latency().p99());
        assertThat(r.latency().p99()).isLessThanOrEqualTo(r.latency().max());
        assertThat(r.peakConnections()).isEqualTo(4);
        assertThat(r.driverCpuMs()).isPositive();
        assertThat(server.served.get()).isGreaterThanOrEqualTo((int) r.requests());
    }

    @Test
    void aWrongBodyIsAnError() throws Exception {
        server.body = "Goodbye";
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), PlaintextServer.plaintext(), Level.closed(2),
                Duration.ofMillis(500), 1);
        assertThat(r.requests()).isPositive();
        assertThat(r.errors()).isEqualTo(r.requests());
        assertThat(r.raw()).contains("plaintext: body is not Hello, World!");
    }

    @Test
    void aRequestInFlightWhenTheWindowEndsIsUnfinishedNotAnError() throws Exception {
        // One user, each answer 700 ms late: the first comes at 0.7 s, the second is in flight at 1 s.
        server.slowMillis = 700;
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), PlaintextServer.plaintext(), Level.closed(1),
                Duration.ofSeconds(1), 1);
        assertThat(r.unfinished()).as("the request cut by the window's end").isEqualTo(1);
        assertThat(r.errors()).as("a cut request is no error of the server").isZero();
        assertThat(r.requests()).isLessThanOrEqualTo(1);
        assertThat(r.raw()).contains("unfinished=1");
    }

    @Test
    void openModelArrivalsInFlightAtTheEndAreUnfinished() throws Exception {
        // 10 arrivals a second on one slow server thread: those sent late in the window are still waiting at its end.
        server.slowMillis = 300;
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), PlaintextServer.plaintext(), Level.open(10),
                Duration.ofSeconds(1), 1);
        assertThat(r.unfinished()).isPositive();
        assertThat(r.errors()).isZero();
    }

    @Test
    void aWindowThatEndsWithNothingInFlightHasNoUnfinishedRequest() throws Exception {
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), PlaintextServer.plaintext(), Level.open(20),
                Duration.ofSeconds(1), 1);
        assertThat(r.requests()).isPositive();
        assertThat(r.unfinished()).as("a fast server answers every arrival before the next one").isZero();
    }

    @Test
    void openModelSendsAtTheOfferedRate() throws Exception {
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), PlaintextServer.plaintext(), Level.open(200),
                Duration.ofSeconds(2), 1);
        assertThat(r.requests()).isBetween(380L, 402L);
        assertThat(r.errors()).isZero();
        assertThat(r.rps()).isBetween(190.0, 201.0);
    }

    @Test
    void openModelLatencyCountsTheQueueingThatAClosedModelHides() throws Exception {
        server.slowMillis = 20; // one server thread: at most ~50 responses per second
        LoadResult closed = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), PlaintextServer.plaintext(), Level.closed(1),
                Duration.ofSeconds(1), 1);
        LoadResult open = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), PlaintextServer.plaintext(), Level.open(100),
                Duration.ofSeconds(2), 1);
        // Closed, one user: every response takes ~20 ms.
        assertThat(closed.latency().p99()).isLessThan(200);
        // Open at twice the capacity: arrivals queue up and the latency from the intended start grows with time.
        assertThat(open.latency().p99()).isGreaterThan(500);
        assertThat(open.rps()).isLessThan(70);
    }
}
