package org.testbed.vertx;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyStoreOptions;
import io.vertx.core.transport.Transport;
import io.netty.handler.codec.compression.StandardCompressionOptions;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.server.ServerTuning;
import org.testbed.service.ItemService;
import org.testbed.service.Metrics;
import org.testbed.store.ItemStore;
import org.testbed.tls.SelfSignedCertificate;

/**
 * The {@code vertx} variant as an object: a Vert.x instance with one {@link HttpVerticle} per event
 * loop, all serving one listening socket, over one shared {@link ItemStore}. {@link #newServer}
 * returns once every verticle listens; {@link #close} stops Vert.x and then closes the store.
 *
 * <p>Sizing: event loops = verticles = {@code Runtime.availableProcessors()}, i.e. the CPUs the
 * JVM may use. {@code TESTBED_THREADS} sizes the worker pools of sync variants and does not apply
 * here; to run on fewer event loops, give the JVM fewer CPUs ({@code taskset -c 0 java ...}, a
 * container CPU limit, or {@code -XX:ActiveProcessorCount=N}). Vert.x's own default would be two
 * event loops per CPU; one per CPU is what TechEmpower's Vert.x tests run.
 */
public final class VertxServer implements AutoCloseable {
    /** The variant name: this family offers only {@link Mode#ASYNC}, which carries no suffix. */
    public static final String FAMILY = "vertx";

    private static final Logger log = LoggerFactory.getLogger(VertxServer.class);
    private static final long START_TIMEOUT_SECONDS = 30;
    private static final long STOP_TIMEOUT_SECONDS = 10;

    private final Vertx vertx;
    private final ItemStore store;
    private final int port;
    private final int eventLoops;
    private final String transport;
    private final AtomicBoolean closed = new AtomicBoolean();

    private VertxServer(Vertx vertx, ItemStore store, int port, int eventLoops, String transport) {
        this.vertx = vertx;
        this.store = store;
        this.port = port;
        this.eventLoops = eventLoops;
        this.transport = transport;
    }

    /**
     * Connects to Memcached, starts Vert.x and deploys one verticle per event loop; returns when all
     * of them listen on {@code config.host()}:{@code config.port()} (port 0: a free port, shared by
     * all of them; see {@link #port()}). Throws {@link IllegalStateException} if it cannot listen.
     */
    public static VertxServer newServer(TestbedConfig config) {
        if (config.mode() != Mode.ASYNC) {
            throw new IllegalArgumentException(FAMILY + " offers only mode async, not " + config.mode().label());
        }
        HttpServerOptions options = serverOptions(config);
        int eventLoops = Runtime.getRuntime().availableProcessors();
        ItemStore store = ServerStartup.connectStore(config);
        ItemService service = ItemService.of(store, variantName(config), config, Metrics.of(config));
        Vertx vertx = Vertx.vertx(new VertxOptions()
                .setPreferNativeTransport(true)
                .setEventLoopPoolSize(eventLoops)
                // Nothing is served from files: no cache directory, no class-path file lookups.
                .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false).setClassPathResolvingEnabled(false)));
        vertx.exceptionHandler(e -> log.error("Uncaught exception on a Vert.x thread", e));
        String transport = describeTransport(vertx);

        AtomicInteger boundPort = new AtomicInteger();
        Future<String> deployment = vertx.deployVerticle(
                () -> new HttpVerticle(service, options, server -> boundPort.set(server.actualPort())),
                new DeploymentOptions().setInstances(eventLoops));
        try {
            deployment.toCompletionStage().toCompletableFuture().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            new VertxServer(vertx, store, 0, eventLoops, transport).close();
            throw new IllegalStateException("cannot listen on " + config.host() + ":" + config.port() + ": " + cause, cause);
        }
        log.info("{}: {} event loop(s), one verticle each, transport {}", FAMILY, eventLoops, transport);
        return new VertxServer(vertx, store, boundPort.get(), eventLoops, transport);
    }

    private static HttpServerOptions serverOptions(TestbedConfig config) {
        HttpServerOptions options = new HttpServerOptions()
                .setHost(config.host())
                // A negative port makes Vert.x bind one random port and share it among the
                // verticles; 0 would give each verticle a different one.
                .setPort(config.port() == 0 ? -1 : config.port())
                .setCompressionSupported(config.gzip())
                .setTcpNoDelay(true)
                .setIdleTimeout(config.idleTimeoutMs())
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                // 100 Continue only once the id and media type are accepted (BodyHandler sends it).
                .setHandle100ContinueAutomatically(false);
        ServerTuning.acceptQueue(config).ifPresent(options::setAcceptBacklog);
        if (config.gzip()) {
            // TESTBED_GZIP: Netty's compressor, gzip only (as Tomcat and Jetty offer), for bodies of
            // at least the contract's minimum. It compresses any media type, and every body the
            // contract has is one of ServerTuning.GZIP_MEDIA_TYPES; HttpVerticle adds the Vary.
            options.setCompressionContentSizeThreshold(TestbedConfig.GZIP_MIN_BYTES)
                    .setCompressors(List.of(StandardCompressionOptions.gzip()));
        }
        if (config.tls()) {
            // HTTP/1.1 over the JDK's TLS (no ALPN, no HTTP/2), like every other variant.
            SelfSignedCertificate certificate = SelfSignedCertificate.generate();
            options.setSsl(true).setKeyCertOptions(new KeyStoreOptions()
                    .setType(SelfSignedCertificate.KEY_STORE_TYPE)
                    .setPath(certificate.keyStore().toString())
                    .setPassword(certificate.password())
                    .setAlias(SelfSignedCertificate.ALIAS));
            log.info("{}: TLS with {}", FAMILY, certificate);
        }
        return options;
    }

    /** The name health answers and the ready line prints: {@code vertx}. */
    public static String variantName(TestbedConfig config) {
        return ServerStartup.variantName(FAMILY, config.mode(), Mode.ASYNC);
    }

    private static String describeTransport(Vertx vertx) {
        if (vertx.isNativeTransportEnabled()) {
            Transport transport = Transport.nativeTransport();
            return transport == null ? "native" : transport.name();
        }
        Throwable cause = vertx.unavailableNativeTransportCause();
        log.warn("{}: native transport unavailable, using Java NIO: {}", FAMILY, cause == null ? "unsupported OS" : cause.toString());
        return "nio";
    }

    /** The port every verticle listens on. */
    public int port() {
        return port;
    }

    public int eventLoops() {
        return eventLoops;
    }

    /** {@code epoll} (Linux, x86_64 or aarch64), {@code kqueue} (macOS), or {@code nio}. */
    public String transport() {
        return transport;
    }

    /** Stops accepting, closes the connections and the event loops, then the Memcached client. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("{}: Vert.x did not close cleanly: {}", FAMILY, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            store.close();
        }
    }
}
