package org.testbed.runner.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testbed.scenario.Workload;

/** The driver against the JDK's own HTTP server on loopback: counts, checks, both load models. */
class NioHttpDriverTest {
    private HttpServer server;
    private final AtomicInteger served = new AtomicInteger();
    private volatile int slowMillis;
    private volatile String body = "Hello, World!";

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
        server.createContext("/testbed/plaintext", exchange -> {
            served.incrementAndGet();
            if (slowMillis > 0) {
                try {
                    Thread.sleep(slowMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.setExecutor(Executors.newSingleThreadExecutor());
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Target target() {
        return new Target("127.0.0.1", server.getAddress().getPort());
    }

    private static Workload plaintext() {
        return Workload.of("plaintext", Workload.Settings.defaults(new org.testbed.scenario.KeySpace("t", "u")));
    }

    @Test
    void closedModelKeepsEveryUserBusyAndVerifiesResponses() throws Exception {
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), plaintext(), Level.closed(4),
                Duration.ofSeconds(1), 1);
        assertThat(r.requests()).isGreaterThan(20);
        assertThat(r.errors()).isZero();
        assertThat(r.seconds()).isEqualTo(1.0);
        assertThat(r.latency().p50()).isPositive().isLessThanOrEqualTo(r.latency().p99());
        assertThat(r.latency().p99()).isLessThanOrEqualTo(r.latency().max());
        assertThat(r.peakConnections()).isEqualTo(4);
        assertThat(r.driverCpuMs()).isPositive();
        assertThat(served.get()).isGreaterThanOrEqualTo((int) r.requests());
    }

    @Test
    void aWrongBodyIsAnError() throws Exception {
        body = "Goodbye";
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), plaintext(), Level.closed(2),
                Duration.ofMillis(500), 1);
        assertThat(r.requests()).isPositive();
        assertThat(r.errors()).isEqualTo(r.requests());
        assertThat(r.raw()).contains("plaintext: body is not Hello, World!");
    }

    @Test
    void openModelSendsAtTheOfferedRate() throws Exception {
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), plaintext(), Level.open(200),
                Duration.ofSeconds(2), 1);
        assertThat(r.requests()).isBetween(380L, 402L);
        assertThat(r.errors()).isZero();
        assertThat(r.rps()).isBetween(190.0, 201.0);
    }

    @Test
    void openModelLatencyCountsTheQueueingThatAClosedModelHides() throws Exception {
        slowMillis = 20; // one server thread: at most ~50 responses per second
        LoadResult closed = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), plaintext(), Level.closed(1),
                Duration.ofSeconds(1), 1);
        LoadResult open = new NioHttpDriver(Duration.ofSeconds(5), 64).run(target(), plaintext(), Level.open(100),
                Duration.ofSeconds(2), 1);
        // Closed, one user: every response takes ~20 ms.
        assertThat(closed.latency().p99()).isLessThan(200);
        // Open at twice the capacity: arrivals queue up and the latency from the intended start grows with time.
        assertThat(open.latency().p99()).isGreaterThan(500);
        assertThat(open.rps()).isLessThan(70);
    }
}
