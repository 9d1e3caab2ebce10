package org.testbed.helidon;

import io.helidon.common.socket.SocketOptions;
import io.helidon.common.tls.Tls;
import io.helidon.http.DirectHandler;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http1.Http1Config;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.server.ServerTuning;
import org.testbed.service.ItemService;
import org.testbed.service.Metrics;
import org.testbed.store.ItemStore;
import org.testbed.tls.SelfSignedCertificate;

/**
 * Variant {@code helidon-se}: Helidon SE 4's web server (Níma) with one {@link ContractHandler} for
 * every method and path. Níma runs each connection on a virtual thread of its own, which reads the
 * connection's requests and runs their handlers one after another; the handler blocks that virtual
 * thread on Memcached and on the delay, and no platform thread runs request code.
 *
 * <p>Every connection is a {@link WatchedConnection} ({@link WatchedConnectionSelector}): its
 * first request line is looked at before Helidon's HTTP/1.1 connection takes it over, and its
 * reads are watched by the {@link IdleCutter}, which is {@code TESTBED_IDLE_TIMEOUT_MS} here: a
 * connection waiting for bytes longer than that, between requests or in the middle of one, is
 * closed. Helidon's own idle timeout is set to the same, for what it covers.
 *
 * <p>The shared settings: backlog ({@code TESTBED_ACCEPT_QUEUE}), the idle timeout, TLS with the
 * shared self-signed certificate. {@code TESTBED_THREADS} is accepted and unused: virtual threads are
 * made per connection, and their carriers are sized by {@link ServerStartup#prepare}.
 */
public final class HelidonSeServer implements AutoCloseable {
    /** The variant name; the server offers mode virtual only, which carries no suffix here. */
    public static final String VARIANT = "helidon-se";
    /** Helidon checks for idle connections this often (its default is two minutes). */
    private static final Duration IDLE_CHECK_PERIOD = Duration.ofSeconds(1);
    /** Request line and header block limits, the 8 KiB the other containers keep. */
    private static final int MAX_PROLOGUE = 8 * 1024;
    private static final int MAX_HEADERS = 8 * 1024;

    private final WebServer server;
    private final IdleCutter cutter;
    private final ItemStore store;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HelidonSeServer(WebServer server, IdleCutter cutter, ItemStore store) {
        this.server = server;
        this.cutter = cutter;
        this.store = store;
    }

    /** Starts a server for {@code config}; it owns {@code store} and closes it once stopped. */
    public static HelidonSeServer start(TestbedConfig config, ItemStore store) {
        Metrics metrics = Metrics.of(config);
        ItemService items = ItemService.of(store, HelidonSeServer.VARIANT, config, metrics);
        ContractHandler handler = new ContractHandler(items, config.gzip());
        IdleCutter cutter = new IdleCutter(ServerTuning.idleTimeout(config));
        Http1Config http1 = Http1Config.builder()
                .maxPrologueLength(MAX_PROLOGUE)
                .maxHeadersSize(MAX_HEADERS)
                .build();
        WebServerConfig.Builder builder = WebServer.builder()
                .host(config.host())
                .port(config.port())
                .shutdownHook(false)
                .idleConnectionTimeout(ServerTuning.idleTimeout(config))
                .idleConnectionPeriod(IDLE_CHECK_PERIOD)
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                // The adapter gzips by the contract's rules itself; Helidon's encoders would
                // compress every answer whatever its size, and decode request bodies.
                .contentEncoding(ContentEncodingContext.builder()
                        .contentEncodingsDiscoverServices(false)
                        .build())
                .addProtocol(http1)
                .addConnectionSelector(new WatchedConnectionSelector(http1, cutter))
                .directHandlers(problemsForEveryEvent())
                .routing(HttpRouting.builder().any(handler));
        ServerTuning.acceptQueue(config).ifPresent(builder::backlog);
        if (config.tls()) {
            builder.tls(Tls.builder().sslContext(SelfSignedCertificate.generate().sslContext()).build());
        }
        WebServer server = builder.build();
        try {
            server.start();
        } catch (RuntimeException e) {
            cutter.close();
            store.close();
            throw e;
        }
        return new HelidonSeServer(server, cutter, store);
    }

    private static DirectHandlers problemsForEveryEvent() {
        DirectHandlers.Builder handlers = DirectHandlers.builder();
        ProblemDirectHandler problems = new ProblemDirectHandler();
        for (DirectHandler.EventType event : DirectHandler.EventType.values()) {
            handlers.addHandler(event, problems);
        }
        return handlers.build();
    }

    /** The bound port (useful with {@code --port 0}). */
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                server.stop();
            } finally {
                cutter.close();
                store.close();
            }
        }
    }

    /** Called by {@code HelidonLauncher} on JDK 21+, once the configuration was checked. */
    public static void serve(TestbedConfig config) {
        HelidonSeServer server;
        try {
            server = start(config, ServerStartup.connectStore(config));
        } catch (RuntimeException e) {
            System.err.println("testbed: " + HelidonSeServer.VARIANT + " did not start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "testbed-shutdown"));
        ServerStartup.printReady(HelidonSeServer.VARIANT, config, server.port());
    }
}
