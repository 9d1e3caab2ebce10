package org.testbed.driver;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Mix;
import org.testbed.scenario.Workload;
import org.testbed.tls.SelfSignedCertificate;

/**
 * A target for the driver's tests: the JDK's own HTTP server on loopback answering
 * {@code GET /testbed/plaintext} on a single thread, optionally slowly or with another body; over
 * HTTPS with a self-signed certificate when asked, gzip-compressing its answer when the request
 * accepts it and {@link #gzip} is on, closing every connection after its response when
 * {@link #closeEach} is on. It also answers the item reads and updates of a mix of GETs and POSTs
 * ({@link #mix}), as the contract does but storing nothing, the updates {@link #slowUpdateMillis} late.
 */
final class PlaintextServer implements AutoCloseable {
    final AtomicInteger served = new AtomicInteger();
    /** Per response: with one server thread (plain HTTP), at most 1000 / slowMillis responses per second. */
    volatile int slowMillis;
    volatile String body = "Hello, World!";
    volatile boolean gzip;
    /** Sends gzip's header with a deflate stream that is not one (a broken compressor). */
    volatile boolean corruptGzip;
    volatile boolean closeEach;
    /** Per item update (POST): a kind of request slower than the others, on purpose. */
    volatile int slowUpdateMillis;
    private final HttpServer server;
    private final boolean tls;
    private final ExecutorService executor;

    PlaintextServer() throws IOException {
        this(false);
    }

    PlaintextServer(boolean tls) throws IOException {
        this.tls = tls;
        // The JDK's HTTPS server handshakes on its handler thread, which then waits for that
        // connection's request: with one thread, a second connection's handshake would wait forever.
        this.executor = tls ? Executors.newCachedThreadPool() : Executors.newSingleThreadExecutor();
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls) {
            HttpsServer https = HttpsServer.create(loopback, 512);
            https.setHttpsConfigurator(new HttpsConfigurator(SelfSignedCertificate.generate().sslContext()));
            server = https;
        } else {
            server = HttpServer.create(loopback, 512);
        }
        server.createContext("/testbed/plaintext", exchange -> {
            served.incrementAndGet();
            pause(slowMillis);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            String accept = exchange.getRequestHeaders().getFirst("Accept-Encoding");
            if (gzip && accept != null && accept.contains("gzip")) {
                bytes = corruptGzip ? new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
                        : gzip(bytes);
                exchange.getResponseHeaders().set("Content-Encoding", "gzip");
            }
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            if (closeEach) {
                exchange.getResponseHeaders().set("Connection", "close");
            }
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.createContext("/testbed/items/", exchange -> {
            served.incrementAndGet();
            String id = exchange.getRequestURI().getPath().substring("/testbed/items/".length());
            byte[] bytes;
            switch (exchange.getRequestMethod()) {
                case "GET" -> bytes = ItemCodec.encode(new Item(id, "stored", ""));
                case "POST" -> {
                    Item written = ItemCodec.decode(id, exchange.getRequestBody().readAllBytes());
                    pause(slowUpdateMillis);
                    bytes = ItemCodec.encode(written);
                }
                default -> {
                    exchange.sendResponseHeaders(405, -1);
                    exchange.close();
                    return;
                }
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.getResponseHeaders().set("ETag", "\"1\"");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.setExecutor(executor);
        server.start();
    }

    private static void pause(int millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    Target target() {
        return new Target("127.0.0.1", server.getAddress().getPort(), tls);
    }

    static Workload plaintext() {
        return Workload.of("plaintext", Workload.Settings.defaults(new KeySpace("t", "u")));
    }

    /** The read-heavy mix at {@code mix}'s weights; of this server's item routes it uses GET and POST only. */
    static Workload mix(Mix mix) {
        Workload.Settings defaults = Workload.Settings.defaults(new KeySpace("t", "u"));
        return Workload.of("mix", new Workload.Settings(defaults.keys(), defaults.seed(), defaults.payloadSize(), 10, mix,
                defaults.delayMs()));
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
