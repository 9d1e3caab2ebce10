package org.testbed.runner.step;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.testbed.runner.load.LoopbackTls;
import org.testbed.scenario.RequestSpec;

/** Before a variant is measured: its health endpoint answers 200, and the items a scenario reads exist. */
final class ServerReadiness {
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(30);

    private ServerReadiness() {
    }

    static void awaitHealthy(URI base) throws IOException, InterruptedException {
        HttpClient client = client();
        long deadline = System.nanoTime() + HEALTH_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(base.resolve("/testbed/health"))
                        .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                last = response.statusCode() + " " + response.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IOException("not healthy within " + HEALTH_TIMEOUT + " (GET /testbed/health: " + last + ")");
    }

    /** Sends the scenario's preload requests, 16 at a time; 201 and 409 (already there) are fine. */
    static void preload(URI base, List<RequestSpec> specs) throws IOException, InterruptedException {
        if (specs.isEmpty()) {
            return;
        }
        HttpClient client = client();
        Semaphore permits = new Semaphore(16);
        AtomicInteger failures = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        List<CompletableFuture<?>> futures = new ArrayList<>();
        for (RequestSpec spec : specs) {
            permits.acquire();
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(spec.path())).timeout(Duration.ofSeconds(10));
            request = spec.hasBody()
                    ? request.header("Content-Type", RequestSpec.JSON).method(spec.method().name(), HttpRequest.BodyPublishers.ofByteArray(spec.body()))
                    : request.method(spec.method().name(), HttpRequest.BodyPublishers.noBody());
            futures.add(client.sendAsync(request.build(), HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
                permits.release();
                if (error != null || (response.statusCode() != 201 && response.statusCode() != 409)) {
                    failures.incrementAndGet();
                    firstFailure.compareAndSet(null, spec.path() + ": " + (error != null ? error : "status " + response.statusCode()));
                }
            }));
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        if (failures.get() > 0) {
            throw new IOException("preload failed for " + failures.get() + " of " + specs.size() + " items, e.g. " + firstFailure.get());
        }
    }

    private static HttpClient client() {
        // Over HTTPS the variant's certificate is self-signed: trust it as the load driver does (loopback only).
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                .sslContext(LoopbackTls.context()).build();
    }
}
