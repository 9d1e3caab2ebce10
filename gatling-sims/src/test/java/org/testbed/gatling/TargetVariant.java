package org.testbed.gatling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.testbed.scenario.LoopbackTls;

/**
 * Which variant the target is, as its {@code GET /testbed/health} says ({@code "variant"}): the
 * {@code variant} column of the run's results, so that compare matches Gatling runs step by step.
 */
final class TargetVariant {
    private TargetVariant() {
    }

    /** The variant's name, or an empty string when the target does not say (down, or not a testbed). */
    static String of(String target) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(target + "/testbed/health"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        try {
            HttpResponse<String> response = LoopbackTls.http11(request.uri().getScheme()).connectTimeout(Duration.ofSeconds(5)).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode variant = new ObjectMapper().readTree(response.body()).path("variant");
            return variant.isTextual() ? variant.asText() : "";
        } catch (IOException | IllegalArgumentException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
