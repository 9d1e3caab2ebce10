package org.testbed.runner.load;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The runner's TLS client side. It trusts whatever certificate the server presents: every variant
 * started with {@code --tls} makes a fresh self-signed certificate at start, which no trust store
 * knows, and the runner only ever sends load to loopback ({@link Target}), where there is nobody
 * to impersonate the server. Verifying would measure nothing more; the handshake's cost (key
 * exchange, the server's signature) is paid the same either way.
 */
public final class LoopbackTls {
    /** TLS 1.3 first, 1.2 when the server offers nothing newer. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private static final SSLContext CONTEXT = trustingEveryCertificate();

    private LoopbackTls() {
    }

    /** The context for loopback HTTPS clients (the JDK's {@code HttpClient} too). */
    public static SSLContext context() {
        return CONTEXT;
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

    private static SSLContext trustingEveryCertificate() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustEveryCertificate()}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK offers no TLS: " + e.getMessage(), e);
        }
    }

    /** An extended trust manager, so that the JDK adds no host name check of its own around it. */
    private static final class TrustEveryCertificate extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
