package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The preloader against a real HTTP server on loopback that answers 503 for a while, as a store that stalls. */
class PreloaderTest {
    private HttpServer server;
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private volatile int unavailableTimes;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/testbed/items/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            int n = attempts.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
            int status = n <= unavailableTimes ? 503 : path.endsWith(".taken") ? 409 : 201;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static List<RequestSpec> puts(String... ids) {
        List<RequestSpec> specs = new ArrayList<>();
        for (String id : ids) {
            specs.add(new RequestSpec("put", HttpMethod.PUT, "/testbed/items/" + id,
                    "{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8), 201, List.of()));
        }
        return specs;
    }

    /** Nothing listens: the requests not yet sent when a refusal outlasted its retries are not sent. */
    @Test
    void aRefusedConnectionEndsThePreloadInsteadOfRetryingEveryRequest() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        String[] ids = new String[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = "refused-" + i;
        }
        Preloader.Outcome outcome = Preloader.run(URI.create("http://127.0.0.1:" + port), puts(ids), 16);

        assertThat(outcome.refused()).isTrue();
        assertThat(outcome.failed()).isEqualTo(1000);
        assertThat(outcome.firstFailure()).contains("ConnectException");
        // Each request sent is retried 3 times; at most the 16 in flight when the first refusal
        // outlasted its retries were sent (all 1000 were, with 3000 retries, before).
        assertThat(outcome.retried()).isLessThanOrEqualTo(3 * 16 * 2);
        assertThat(outcome.describe()).endsWith("the connection was refused, the rest not sent");
    }

    @Test
    void aStoreThatStallsBrieflyLosesNothing() {
        unavailableTimes = 2;
        Preloader.Outcome outcome = Preloader.run(base(), puts("a", "b", "c.taken"), 2);
        assertThat(outcome.created()).isEqualTo(2);
        assertThat(outcome.existing()).isEqualTo(1);
        assertThat(outcome.failed()).isZero();
        assertThat(outcome.retried()).isEqualTo(6);
        assertThat(outcome.describe()).contains("6 tried again");
    }

    @Test
    void aStoreThatStaysDownFailsAfterTheRetries() {
        unavailableTimes = 100;
        Preloader.Outcome outcome = Preloader.run(base(), puts("a"), 1);
        assertThat(outcome.failed()).isEqualTo(1);
        assertThat(outcome.firstFailure()).isEqualTo("/testbed/items/a: status 503");
        assertThat(attempts.get("/testbed/items/a")).as("one try and three retries").hasValue(4);
    }

    @Test
    void aRefusedConnectionIsAFailureWithItsCause() throws Exception {
        URI dead = base();
        server.stop(0);
        Preloader.Outcome outcome = Preloader.run(dead, puts("a"), 1);
        assertThat(outcome.failed()).isEqualTo(1);
        assertThat(outcome.firstFailure()).startsWith("/testbed/items/a: ").contains("ConnectException");
    }
}
