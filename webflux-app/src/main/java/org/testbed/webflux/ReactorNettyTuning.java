package org.testbed.webflux;

import io.netty.channel.ChannelOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.embedded.netty.NettyServerCustomizer;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerTuning;
import org.testbed.tls.SelfSignedCertificate;
import reactor.netty.NettyPipeline;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Reactor Netty set up like every other server, from the same settings: the listen backlog
 * ({@code TESTBED_ACCEPT_QUEUE}), keep-alive without a request limit (Reactor Netty's default), the
 * idle timeout between requests and within one ({@code TESTBED_IDLE_TIMEOUT_MS}), gzip by the
 * contract's rules ({@code TESTBED_GZIP}), HTTP/1.1 over TLS with a self-signed certificate
 * ({@code TESTBED_TLS}), and {@link RequestGate} in front of the application.
 */
final class ReactorNettyTuning implements NettyServerCustomizer {
    private static final Logger log = LoggerFactory.getLogger(ReactorNettyTuning.class);

    private final TestbedConfig config;

    ReactorNettyTuning(TestbedConfig config) {
        this.config = config;
    }

    @Override
    public HttpServer apply(HttpServer server) {
        HttpServer tuned = server
                // Waiting for a request (headers that stopped arriving included) ...
                .idleTimeout(ServerTuning.idleTimeout(config))
                // ... and between two reads of a request's body: a stalled client is cut off.
                .readTimeout(ServerTuning.idleTimeout(config))
                .doOnChannelInit((observer, channel, remoteAddress) -> channel.pipeline()
                        .addBefore(NettyPipeline.HttpTrafficHandler, RequestGate.NAME, new RequestGate(config.gzip())));
        if (ServerTuning.acceptQueue(config).isPresent()) {
            tuned = tuned.option(ChannelOption.SO_BACKLOG, ServerTuning.acceptQueue(config).getAsInt());
        }
        if (config.gzip()) {
            // Netty's compressor also deflates (and more): RequestGate leaves it only the gzip of
            // each request's Accept-Encoding, so gzip is all it ever picks, as on Tomcat and Jetty.
            tuned = tuned.compress(ReactorNettyTuning::worthCompressing);
        }
        if (config.tls()) {
            // HTTP/1.1 over the JDK's TLS (no ALPN, no HTTP/2), like every other variant.
            SelfSignedCertificate certificate = SelfSignedCertificate.generate();
            tuned = tuned.secure(spec -> spec.sslContext(Http11SslContextSpec.forServer(certificate.keyManagerFactory())));
            log.info("{}: TLS with {}", SpringWebFluxApplication.FAMILY, certificate);
        }
        return tuned;
    }

    /**
     * The contract's gzip rules ({@link ServerTuning#GZIP_MEDIA_TYPES}, at least
     * {@link TestbedConfig#GZIP_MIN_BYTES}); a strong ETag names the identity bytes, so an answer
     * carrying one is never compressed (with gzip on, the service's ETags are weak).
     */
    static boolean worthCompressing(HttpServerRequest request, HttpServerResponse response) {
        String length = response.responseHeaders().get("Content-Length");
        String type = response.responseHeaders().get("Content-Type");
        String etag = response.responseHeaders().get("ETag");
        if (length == null || type == null || etag != null && !etag.startsWith("W/")) {
            return false;
        }
        try {
            if (Long.parseLong(length) < TestbedConfig.GZIP_MIN_BYTES) {
                return false;
            }
        } catch (NumberFormatException e) {
            return false;
        }
        String mediaType = type.split(";", 2)[0].trim();
        return ServerTuning.GZIP_MEDIA_TYPES.stream().anyMatch(mediaType::equalsIgnoreCase);
    }
}
