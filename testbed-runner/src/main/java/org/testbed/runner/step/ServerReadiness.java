package org.testbed.runner.step;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.testbed.scenario.LoopbackTls;
import org.testbed.scenario.Preloader;
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
    static void preload(URI base, List<RequestSpec> specs) throws IOException {
        if (specs.isEmpty()) {
            return;
        }
        Preloader.Outcome outcome = Preloader.run(base, specs, 16);
        if (outcome.failed() > 0) {
            throw new IOException("preload failed for " + outcome.failed() + " of " + specs.size() + " items, e.g. " + outcome.firstFailure());
        }
    }

    private static HttpClient client() {
        // Over HTTPS the variant's certificate is self-signed: trust it as the load driver does (loopback only).
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                .sslContext(LoopbackTls.trustingAnyCertificate()).build();
    }
}
