package org.testbed.runner.load;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Workload;

/**
 * A target for the driver's tests: the JDK's own HTTP server on loopback answering
 * {@code GET /testbed/plaintext} on a single thread, optionally slowly or with another body.
 */
final class PlaintextServer implements AutoCloseable {
    final AtomicInteger served = new AtomicInteger();
    /** Per response: with one server thread, at most 1000 / slowMillis responses per second. */
    volatile int slowMillis;
    volatile String body = "Hello, World!";
    private final HttpServer server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    PlaintextServer() throws IOException {
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
        server.setExecutor(executor);
        server.start();
    }

    Target target() {
        return new Target("127.0.0.1", server.getAddress().getPort());
    }

    static Workload plaintext() {
        return Workload.of("plaintext", Workload.Settings.defaults(new KeySpace("t", "u")));
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
