package org.testbed.driver;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.testbed.scenario.LoopbackTls;

/**
 * The driver's TLS client side: one context for every connection of the run (so that making an
 * engine per connection costs nothing beyond the handshake), trusting whatever certificate the
 * server presents. Every variant started with {@code --tls} makes a fresh self-signed certificate
 * at start, which no trust store knows, and the driver only ever sends load to loopback
 * ({@link Target}), where there is nobody to impersonate the server. Verifying would measure
 * nothing more; the handshake's cost (key exchange, the server's signature) is paid either way.
 */
final class TlsEngines {
    /** TLS 1.3 first, 1.2 when the server offers nothing newer. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private static final SSLContext CONTEXT = LoopbackTls.trustingAnyCertificate();

    private TlsEngines() {
    }

    /** A client engine for one connection to {@code target}. */
    static SSLEngine clientEngine(Target target) {
        SSLEngine engine = CONTEXT.createSSLEngine(target.host(), target.port());
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(PROTOCOLS);
        engine.setSSLParameters(parameters);
        return engine;
    }
}
