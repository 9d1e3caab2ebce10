package org.testbed.toxiproxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The parts of Toxiproxy's HTTP API the testbed uses: proxies from a free loopback port to an
 * upstream, and toxics on them. Every failure (the API refusing, or not answering) is an
 * {@link IllegalStateException} quoting what the API said.
 */
public final class ToxiproxyClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI api;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** @param api e.g. {@code http://127.0.0.1:8474} */
    public ToxiproxyClient(URI api) {
        this.api = api;
    }

    /** A proxy as the API describes it; {@code listen} is {@code 127.0.0.1:PORT}, the form MEMCACHED_SERVERS takes. */
    public record Proxy(String name, String listen, String upstream) {
    }

    /**
     * Creates proxy {@code name} from a free loopback port (chosen by Toxiproxy itself, so no other
     * process can take it in between) to {@code upstream} ({@code host:port}), enabled.
     */
    public Proxy createProxy(String name, String upstream) {
        ObjectNode body = JSON.createObjectNode().put("name", name).put("listen", "127.0.0.1:0")
                .put("upstream", upstream).put("enabled", true);
        JsonNode created = send("POST", "/proxies", body, 201);
        return new Proxy(created.path("name").asText(), created.path("listen").asText(), created.path("upstream").asText());
    }

    /** Deletes proxy {@code name}: its port closes and its open connections are cut. */
    public void deleteProxy(String name) {
        send("DELETE", "/proxies/" + encode(name), null, 204);
    }

    /** Adds {@code toxic} to proxy {@code proxy}; a toxic of the same name must not be there yet. */
    public void addToxic(String proxy, Toxic toxic) {
        ObjectNode body = JSON.createObjectNode().put("name", toxic.name()).put("type", toxic.type())
                .put("stream", toxic.stream()).put("toxicity", toxic.toxicity());
        ObjectNode attributes = body.putObject("attributes");
        toxic.attributes().forEach(attributes::put);
        send("POST", "/proxies/" + encode(proxy) + "/toxics", body, 200);
    }

    /** Removes the toxic named {@code toxicName} from proxy {@code proxy}. */
    public void removeToxic(String proxy, String toxicName) {
        send("DELETE", "/proxies/" + encode(proxy) + "/toxics/" + encode(toxicName), null, 204);
    }

    /** Delays every reply through {@code proxy} by {@code latency} ± {@code jitter}; see {@link Toxic#latency}. */
    public void addLatency(String proxy, Duration latency, Duration jitter) {
        addToxic(proxy, Toxic.latency(latency, jitter));
    }

    /** Removes what {@link #addLatency} added. */
    public void removeLatency(String proxy) {
        removeToxic(proxy, Toxic.latency(Duration.ZERO, Duration.ZERO).name());
    }

    /** The server's version string ({@code git} for one built with {@code go install}, which stamps none). */
    public String version() {
        return call("GET", "/version", null).body().strip();
    }

    /** Whether the API answers at all (used while the server starts). */
    boolean answers() {
        try {
            HttpRequest request = HttpRequest.newBuilder(api.resolve("/version")).timeout(Duration.ofMillis(500)).GET().build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private JsonNode send(String method, String path, JsonNode body, int expected) {
        HttpResponse<String> response = call(method, path, body);
        if (response.statusCode() != expected) {
            throw new IllegalStateException("toxiproxy " + method + " " + path + " answered " + response.statusCode()
                    + ": " + response.body().strip());
        }
        try {
            return response.body().isBlank() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("toxiproxy " + method + " " + path + " answered no JSON: " + response.body(), e);
        }
    }

    private HttpResponse<String> call(String method, String path, JsonNode body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(api.resolve(path)).timeout(TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("toxiproxy at " + api + " did not answer " + method + " " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling toxiproxy", e);
        }
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return "toxiproxy API " + api;
    }
}
