package org.testbed.containers.jetty;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.server.ServerTuning;
import org.testbed.service.Metrics;
import org.testbed.store.ItemStore;
import org.testbed.tls.SelfSignedCertificate;

/**
 * The one Jetty 12 server setup of every Jetty variant (servlet-jetty-* and jetty-handler): the
 * thread pool for the mode, one HTTP/1.1 connector (HTTPS with a fresh self-signed certificate when
 * {@code TESTBED_TLS=true}) with {@link ServerTuning}'s timeouts and backlog, {@code Server:
 * testbed} and {@code Date} on every response, problem-JSON error pages. The variant only adds its
 * handler, through {@link #setHandler}, which puts gzip and metrics around it as the settings say.
 * Jetty keeps connections alive without a limit.
 */
public final class JettyServers {
    static final HttpField SERVER = new PreEncodedHttpField(HttpHeader.SERVER, ServerTuning.SERVER_HEADER);

    private JettyServers() {
    }

    /**
     * A server for {@code config}, not yet started and without a handler. It owns {@code store}
     * and closes it once stopped. Mode virtual needs JDK 21 (check with
     * {@code ServerStartup.prepare} first: on 17 Jetty would silently use platform threads).
     */
    public static Server newServer(TestbedConfig config, ItemStore store) {
        Server server = new Server(threadPool(config));
        server.addConnector(connector(server, config));
        server.setErrorHandler(new ProblemErrorHandler());
        server.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStopped(LifeCycle event) {
                store.close();
            }
        });
        return server;
    }

    /**
     * What a Jetty variant's {@code main} does with its server: starts it, prints the ready line
     * naming {@code variant}, and serves until the JVM stops (which stops the server). A start that
     * fails is one line on stderr naming {@code name}, then exit status 1.
     */
    public static void serve(Server server, String name, String variant, TestbedConfig config) throws Exception {
        server.setStopAtShutdown(true);
        try {
            server.start();
        } catch (Exception e) {
            System.err.println("testbed: " + name + " failed to start: " + e);
            server.stop();
            System.exit(1);
        }
        ServerStartup.printReady(variant, config, localPort(server));
        server.join();
    }

    /**
     * Serves {@code application} on {@code server}, inside a {@link GzipHandler} when
     * {@code TESTBED_GZIP} is on and inside a {@link MetricsHandler} when {@code metrics} are
     * (outermost, so that the time recorded includes the compression).
     */
    public static void setHandler(Server server, TestbedConfig config, Metrics metrics, Handler application) {
        Handler handler = config.gzip() ? gzip(application) : application;
        server.setHandler(metrics.enabled() ? new MetricsHandler(metrics, handler) : handler);
    }

    /**
     * Jetty's own compression, for {@link ServerTuning#GZIP_MEDIA_TYPES} of at least
     * {@link TestbedConfig#GZIP_MIN_BYTES}, on every method of the contract (Jetty's default is GET
     * only, where Tomcat and Vert.x compress any answer); Jetty adds {@code Vary: Accept-Encoding}.
     * Item answers too: with gzip on their ETags are weak ({@code ETags.WEAK}), which every server
     * compresses as it is.
     */
    static GzipHandler gzip(Handler application) {
        GzipHandler gzip = new GzipHandler(application);
        gzip.setMinGzipSize(TestbedConfig.GZIP_MIN_BYTES);
        gzip.setIncludedMimeTypes(ServerTuning.GZIP_MEDIA_TYPES.toArray(String[]::new));
        gzip.setIncludedMethods("GET", "PUT", "POST", "DELETE");
        return gzip;
    }

    /** The port the server's connector is bound to (the free one chosen for port 0), once started. */
    public static int localPort(Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    /**
     * Writes a testbed response in one non-blocking write with an explicit {@code Content-Length};
     * {@code callback} completes when it is written.
     */
    public static void write(Response response, org.testbed.http.Response answer, Callback callback) {
        response.setStatus(answer.status());
        HttpFields.Mutable headers = response.getHeaders();
        if (answer.contentType() != null) {
            headers.put(HttpHeader.CONTENT_TYPE, answer.contentType());
        }
        answer.forEachHeader(headers::put);
        byte[] body = answer.body();
        if (answer.status() == 204) {
            response.write(true, null, callback);
            return;
        }
        headers.put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /**
     * Sync: {@code TESTBED_THREADS} workers. Async: a few, for parsing and writing. Virtual: the
     * same few platform threads for Jetty's own work, and a virtual thread for each blocking
     * request. On top of the workers, the pool holds the threads the connector leases for
     * accepting and selecting, so that exactly the workers are left for requests.
     */
    static QueuedThreadPool threadPool(TestbedConfig config) {
        int leased = ServerTuning.acceptorThreads() + ServerTuning.selectorThreads();
        QueuedThreadPool pool = new QueuedThreadPool(ServerTuning.workerThreads(config) + leased,
                ServerTuning.minWorkerThreads(config) + leased);
        pool.setName("jetty-" + config.mode().label());
        if (config.mode() == Mode.VIRTUAL) {
            pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("jetty-virtual"));
        }
        return pool;
    }

    private static ServerConnector connector(Server server, TestbedConfig config) {
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setSendDateHeader(true);
        http.addCustomizer((request, responseHeaders) -> {
            responseHeaders.put(SERVER);
            return request;
        });
        ConnectionFactory[] factories;
        if (config.tls()) {
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            // Load tools connect to 127.0.0.1 or any host name: do not insist that SNI matches the certificate.
            secure.setSniHostCheck(false);
            http.addCustomizer(secure);
            factories = new ConnectionFactory[] {
                new SslConnectionFactory(sslContextFactory(SelfSignedCertificate.generate()), HttpVersion.HTTP_1_1.asString()),
                new HttpConnectionFactory(http)};
        } else {
            factories = new ConnectionFactory[] {new HttpConnectionFactory(http)};
        }
        ServerConnector connector = new ServerConnector(server, ServerTuning.acceptorThreads(),
                ServerTuning.selectorThreads(), factories);
        connector.setHost(config.host());
        connector.setPort(config.port());
        connector.setIdleTimeout(ServerTuning.idleTimeout(config).toMillis());
        ServerTuning.acceptQueue(config).ifPresent(connector::setAcceptQueueSize);
        return connector;
    }

    static SslContextFactory.Server sslContextFactory(SelfSignedCertificate certificate) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(certificate.keyStore().toAbsolutePath().toString());
        ssl.setKeyStorePassword(certificate.password());
        ssl.setKeyStoreType(SelfSignedCertificate.KEY_STORE_TYPE);
        ssl.setCertAlias(SelfSignedCertificate.ALIAS);
        return ssl;
    }
}
