package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.driver.PlaintextServer.mix;

import java.io.IOException;
import java.time.Duration;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testbed.driver.LoadResult.OperationFigures;
import org.testbed.scenario.Mix;

/**
 * Per-operation figures, against the test server's item routes: a mix of reads (GET) and updates
 * (POST), the updates made slow by the server.
 */
class NioHttpDriverOperationsTest {
    /** Reads and updates, half and half: the only item routes the test server answers as the contract does. */
    private static final Mix READS_AND_UPDATES = new Mix(50, 50, 0, 0);

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
}
