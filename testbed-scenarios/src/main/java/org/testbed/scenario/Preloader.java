package org.testbed.scenario;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Creates the items a scenario reads before its load starts (so that creating them is not
 * measured), a bounded number of requests in flight. 201 and 409 (left by an earlier run) both
 * count as present. A 503 (the store did not answer in time: by the contract a transient state
 * the service recovers from) or a failed connection is tried again after a pause, a few times, so
 * that a busy machine does not lose a whole variant's run to one slow moment. A connection refused
 * even after those retries means nothing listens there: the requests not yet sent are then counted
 * as failed without being sent, so that a wrong address fails in about a second, not after every
 * request's retries. It reports; each caller decides what a failure means: the runner stops, a
 * Gatling run goes on and lets its assertions judge the target.
 */
public final class Preloader {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** Pauses before the retries of a 503 or a failed connection: 0.2, 0.4, 0.8 s. */
    private static final long[] RETRY_PAUSE_MS = {200, 400, 800};

    private Preloader() {
    }

    /** What a preload did. */
    public record Outcome(int requested, int created, int existing, int failed, String firstFailure, Duration took,
                          int retried, boolean refused) {
        /** One line for a log. */
        public String describe() {
            return String.format(Locale.ROOT, "%d created, %d already there, %d failed in %d ms%s%s%s",
                    created, existing, failed, took.toMillis(), retried == 0 ? "" : " (" + retried + " tried again)",
                    failed == 0 ? "" : " (first: " + firstFailure + ")",
                    refused ? "; the connection was refused, the rest not sent" : "");
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
        AtomicInteger retried = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        AtomicReference<Throwable> refused = new AtomicReference<>();
        CompletableFuture<?>[] all = new CompletableFuture<?>[specs.size()];
        for (int i = 0; i < specs.size(); i++) {
            RequestSpec spec = specs.get(i);
            permits.acquireUninterruptibly();
            if (refused.get() != null) {
                permits.release();
                failed.incrementAndGet();
                all[i] = CompletableFuture.completedFuture(null);
                continue;
            }
            all[i] = send(client, request(base, spec), 0, retried)
                    .handle((response, error) -> {
                        permits.release();
                        if (error == null && response.statusCode() == 201) {
                            created.incrementAndGet();
                        } else if (error == null && response.statusCode() == 409) {
                            existing.incrementAndGet();
                        } else {
                            if (isRefused(error)) {
                                refused.compareAndSet(null, error);
                            }
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, spec.path() + ": "
                                    + (error != null ? unwrapped(error).toString() : "status " + response.statusCode()));
                        }
                        return null;
                    });
        }
        CompletableFuture.allOf(all).join();
        return new Outcome(specs.size(), created.get(), existing.get(), failed.get(), firstFailure.get(),
                Duration.ofNanos(System.nanoTime() - started), retried.get(), refused.get() != null);
    }

    /** The failure itself, not the CompletionException the async client wraps it in. */
    private static Throwable unwrapped(Throwable error) {
        return error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    private static boolean isRefused(Throwable error) {
        return error instanceof java.net.ConnectException || error != null && error.getCause() instanceof java.net.ConnectException;
    }

    /** Sends, and after a 503 or an I/O failure sends again after a pause, up to the retries there are. */
    private static CompletableFuture<HttpResponse<Void>> send(HttpClient client, HttpRequest request, int attempt,
                                                              AtomicInteger retried) {
        return client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, error) -> {
            boolean transientFailure = error != null ? error instanceof java.io.IOException
                    || error.getCause() instanceof java.io.IOException : response.statusCode() == 503;
            if (!transientFailure || attempt >= RETRY_PAUSE_MS.length) {
                return error == null ? CompletableFuture.completedFuture(response)
                        : CompletableFuture.<HttpResponse<Void>>failedFuture(error);
            }
            retried.incrementAndGet();
            Executor later = CompletableFuture.delayedExecutor(RETRY_PAUSE_MS[attempt], TimeUnit.MILLISECONDS);
            return CompletableFuture.supplyAsync(() -> null, later)
                    .thenCompose(ignored -> send(client, request, attempt + 1, retried));
        }).thenCompose(f -> f);
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
