package org.testbed.scenario;

import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * TLS for the testbed's own clients (the preloader, the contract suite, benchmarks): a variant
 * started with {@code --tls} makes a self-signed certificate at start, which no trust store knows,
 * so these clients accept any certificate. They only ever talk to a server they started or were
 * pointed at to measure it; nothing here is for a client that needs to know whom it talks to.
 */
public final class LoopbackTls {
    private LoopbackTls() {
    }

    /** An SSL context that trusts every server certificate. */
    public static SSLContext trustingAnyCertificate() {
        TrustManager trustAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trustAll}, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS in this JDK: " + e.getMessage(), e);
        }
    }

    /** A JDK HTTP/1.1 client builder for {@code scheme}; for https it trusts any certificate. */
    public static HttpClient.Builder http11(String scheme) {
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1);
        if ("https".equalsIgnoreCase(scheme)) {
            builder.sslContext(trustingAnyCertificate());
        }
        return builder;
    }
}
