package org.testbed.containers.tomcat;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerTuning;
import org.testbed.tls.SelfSignedCertificate;

/**
 * The one HTTP/1.1 connector setup of every Tomcat variant: address and port, {@link ServerTuning}'s
 * threads, timeouts and backlog, keep-alive without a request limit, gzip as {@code TESTBED_GZIP} says, {@code Server:
 * testbed}, virtual threads in mode virtual, HTTPS with a fresh self-signed certificate when
 * {@code TESTBED_TLS=true}. Tomcat adds {@code Date} by itself.
 *
 * <p>Embedded Tomcat: {@link #newConnector}. Spring Boot, whose factory makes the connector:
 * {@code factory.addConnectorCustomizers(c -> TomcatConnectors.configure(c, config))}.
 */
public final class TomcatConnectors {
    private TomcatConnectors() {
    }

    /** A new NIO connector set up by {@link #configure}. */
    public static Connector newConnector(TestbedConfig config) {
        Connector connector = new Connector(Http11NioProtocol.class.getName());
        configure(connector, config);
        return connector;
    }

    /**
     * Sets up {@code connector} for {@code config}. Mode virtual needs JDK 21 (check with
     * {@code ServerStartup.prepare} first: on 17 Tomcat only logs that the connector failed).
     */
    public static void configure(Connector connector, TestbedConfig config) {
        String idleMillis = Long.toString(ServerTuning.idleTimeout(config).toMillis());
        connector.setPort(config.port());
        set(connector, "address", config.host());
        set(connector, "server", ServerTuning.SERVER_HEADER);
        configureGzip(connector, config);
        // Tomcat closes a connection after 100 requests by default: load tools would measure reconnects.
        set(connector, "maxKeepAliveRequests", "-1");
        set(connector, "keepAliveTimeout", idleMillis);
        set(connector, "connectionTimeout", idleMillis);
        set(connector, "maxSwallowSize", Long.toString(ServerTuning.DISCARD_LIMIT));
        ServerTuning.acceptQueue(config).ifPresent(backlog -> set(connector, "acceptCount", Integer.toString(backlog)));
        // "100 Continue" only once the application reads the body: a rejected upload (413, 415) is
        // answered without inviting the client to send it, as Jetty does.
        set(connector, "continueResponseTiming", "onRead");
        // With TRACE refused by the connector, Tomcat answers 405 with an empty body and without
        // the error valve. Let it through: each variant answers it 405 with a problem body and the
        // endpoint's Allow, as any other method outside the contract (and never echoes it).
        connector.setAllowTrace(true);
        if (config.mode() == Mode.VIRTUAL) {
            set(connector, "useVirtualThreads", "true");
        } else {
            set(connector, "maxThreads", Integer.toString(ServerTuning.workerThreads(config)));
            set(connector, "minSpareThreads", Integer.toString(ServerTuning.minWorkerThreads(config)));
        }
        if (config.tls()) {
            enableTls(connector, SelfSignedCertificate.generate());
        }
    }

    /**
     * {@code TESTBED_GZIP}: Tomcat's own connector compression, for {@link ServerTuning#GZIP_MEDIA_TYPES}
     * of at least {@link TestbedConfig#GZIP_MIN_BYTES}; Tomcat adds {@code Vary: accept-encoding}.
     * Tomcat never compresses an answer with a strong ETag: with gzip on the items' ETags are weak.
     */
    static void configureGzip(Connector connector, TestbedConfig config) {
        if (!config.gzip()) {
            set(connector, "compression", "off");
            return;
        }
        set(connector, "compression", "on");
        set(connector, "compressionMinSize", Integer.toString(TestbedConfig.GZIP_MIN_BYTES));
        set(connector, "compressibleMimeType", String.join(",", ServerTuning.GZIP_MEDIA_TYPES));
    }

    /** Serves HTTPS (HTTP/1.1 over TLS, JSSE) on {@code connector} with {@code certificate}. */
    public static void enableTls(Connector connector, SelfSignedCertificate certificate) {
        SSLHostConfig tls = new SSLHostConfig();
        SSLHostConfigCertificate key = new SSLHostConfigCertificate(tls, SSLHostConfigCertificate.Type.UNDEFINED);
        key.setCertificateKeystoreFile(certificate.keyStore().toAbsolutePath().toString());
        key.setCertificateKeystorePassword(certificate.password());
        key.setCertificateKeystoreType(SelfSignedCertificate.KEY_STORE_TYPE);
        key.setCertificateKeyAlias(SelfSignedCertificate.ALIAS);
        tls.addCertificate(key);
        connector.addSslHostConfig(tls);
        connector.setScheme("https");
        connector.setSecure(true);
        set(connector, "SSLEnabled", "true");
    }

    private static void set(Connector connector, String name, String value) {
        if (!connector.setProperty(name, value)) {
            throw new IllegalArgumentException("Tomcat " + connector.getProtocolHandlerClassName()
                    + " has no property " + name);
        }
    }
}
