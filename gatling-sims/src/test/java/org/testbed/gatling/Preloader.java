package org.testbed.gatling;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.testbed.scenario.RequestSpec;

/**
 * Creates the preloaded key set before the load starts (outside Gatling, so it is not measured),
 * 32 requests in flight. 201 and 409 (left by an earlier run) both count as present. Failures are
 * reported, not thrown: the run then goes on and its assertions judge the target.
 */
final class Preloader {
    private static final int IN_FLIGHT = 32;

    private Preloader() {
    }

    static void run(String target, List<RequestSpec> puts) {
        long started = System.nanoTime();
        HttpClient client = client();
        Semaphore permits = new Semaphore(IN_FLIGHT);
        AtomicInteger created = new AtomicInteger();
        AtomicInteger existing = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        CompletableFuture<?>[] all = new CompletableFuture<?>[puts.size()];
        for (int i = 0; i < puts.size(); i++) {
            RequestSpec spec = puts.get(i);
            permits.acquireUninterruptibly();
            HttpRequest request = HttpRequest.newBuilder(URI.create(target + spec.path()))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", RequestSpec.JSON)
                    .method(spec.method().name(), HttpRequest.BodyPublishers.ofByteArray(spec.body()))
                    .build();
            all[i] = client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .handle((response, error) -> {
                        permits.release();
                        if (error == null && response.statusCode() == 201) {
                            created.incrementAndGet();
                        } else if (error == null && response.statusCode() == 409) {
                            existing.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, spec.path() + ": "
                                    + (error != null ? error.toString() : "status " + response.statusCode()));
                        }
                        return null;
                    });
        }
        CompletableFuture.allOf(all).join();
        System.out.printf("testbed preload: %d created, %d already there, %d failed in %d ms%s%n",
                created.get(), existing.get(), failed.get(), (System.nanoTime() - started) / 1_000_000,
                failed.get() == 0 ? "" : " (first: " + firstFailure.get() + ")");
    }

    /** An HTTP/1.1 client that, as Gatling itself, trusts any certificate. */
    static HttpClient client() {
        // The variants' HTTPS uses a self-signed certificate made at start.
        System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(trustAll())
                .build();
    }

    private static SSLContext trustAll() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
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
            }}, new SecureRandom());
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
