package org.testbed.scenario;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Creates the items a scenario reads before its load starts (so that creating them is not
 * measured), a bounded number of requests in flight. 201 and 409 (left by an earlier run) both
 * count as present. It reports; each caller decides what a failure means: the runner stops, a
 * Gatling run goes on and lets its assertions judge the target.
 */
public final class Preloader {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private Preloader() {
    }

    /** What a preload did. */
    public record Outcome(int requested, int created, int existing, int failed, String firstFailure, Duration took) {
        /** One line for a log. */
        public String describe() {
            return String.format(Locale.ROOT, "%d created, %d already there, %d failed in %d ms%s",
                    created, existing, failed, took.toMillis(), failed == 0 ? "" : " (first: " + firstFailure + ")");
        }
    }

    /**
     * Sends {@code specs} to {@code base} (http or https), at most {@code inFlight} at once, and
     * waits for every answer.
     */
    public static Outcome run(URI base, List<RequestSpec> specs, int inFlight) {
        long started = System.nanoTime();
        if ("https".equalsIgnoreCase(base.getScheme())) {
            // A target measured over HTTPS may be reached by a name its certificate made at start
            // does not carry (Gatling itself checks none); the JDK client reads this switch once.
            System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        }
        HttpClient client = LoopbackTls.http11(base.getScheme()).connectTimeout(CONNECT_TIMEOUT).build();
        Semaphore permits = new Semaphore(inFlight);
        AtomicInteger created = new AtomicInteger();
        AtomicInteger existing = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        CompletableFuture<?>[] all = new CompletableFuture<?>[specs.size()];
        for (int i = 0; i < specs.size(); i++) {
            RequestSpec spec = specs.get(i);
            permits.acquireUninterruptibly();
            all[i] = client.sendAsync(request(base, spec), HttpResponse.BodyHandlers.discarding())
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
        return new Outcome(specs.size(), created.get(), existing.get(), failed.get(), firstFailure.get(),
                Duration.ofNanos(System.nanoTime() - started));
    }

    /** The path goes after whatever {@code base} holds, a path prefix included (a proxy's, say). */
    private static HttpRequest request(URI base, RequestSpec spec) {
        String prefix = base.toString().replaceAll("/+$", "");
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(prefix + spec.path())).timeout(REQUEST_TIMEOUT);
        return spec.hasBody()
                ? request.header("Content-Type", RequestSpec.JSON)
                        .method(spec.method().name(), HttpRequest.BodyPublishers.ofByteArray(spec.body())).build()
                : request.method(spec.method().name(), HttpRequest.BodyPublishers.noBody()).build();
    }
}
