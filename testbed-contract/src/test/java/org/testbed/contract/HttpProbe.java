package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.testbed.scenario.LoopbackTls;

/**
 * Real HTTP to a variant with the JDK client, and the checks every response must pass whatever
 * the request: {@code Server: testbed}, a {@code Date}, a {@code Content-Length} on bodies, and for
 * every error an {@code application/problem+json} body with matching status and no stack trace.
 */
final class HttpProbe {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private final URI base;
    private final HttpClient client;
    private final Duration requestTimeout;

    HttpProbe(URI base) {
        this(base, REQUEST_TIMEOUT);
    }

    /** With a request timeout of its own, for a server slower than the host's (an emulated one). */
    HttpProbe(URI base, Duration requestTimeout) {
        this.base = base;
        this.client = LoopbackTls.http11(base.getScheme()).connectTimeout(Duration.ofSeconds(5)).build();
        this.requestTimeout = requestTimeout;
    }

    URI base() {
        return base;
    }

    record Reply(int status, java.net.http.HttpHeaders headers, byte[] body, Duration elapsed) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("Body is not JSON: " + text(), e);
            }
        }

        Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        String etag() {
            return header("ETag").orElseThrow(() -> new AssertionError("no ETag header"));
        }
    }

    Reply get(String path) {
        return send("GET", path, null, null, Map.of());
    }

    Reply delete(String path) {
        return send("DELETE", path, null, null, Map.of());
    }

    Reply put(String path, String json) {
        return send("PUT", path, "application/json", json.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    Reply post(String path, String json, Map<String, String> headers) {
        return send("POST", path, "application/json", json.getBytes(StandardCharsets.UTF_8), headers);
    }

    /** Sends any request; {@code contentType} null sends none. Checks the universal rules. */
    Reply send(String method, String path, String contentType, byte[] body, Map<String, String> headers) {
        Reply reply = exchange(method, path, contentType, body, headers);
        if (method.equals("HEAD")) {
            checkHeadRules(method + " " + path, reply);
        } else {
            checkUniversalRules(method + " " + path, reply);
        }
        return reply;
    }

    /**
     * Sends a request and returns the answer as it came, body still content-coded, without the
     * universal rules: a gzip answer is streamed, so it may have no {@code Content-Length}.
     */
    Reply exchange(String method, String path, String contentType, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(requestTimeout)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        headers.forEach(request::header);
        long start = System.nanoTime();
        HttpResponse<byte[]> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return new Reply(response.statusCode(), response.headers(), response.body(),
                Duration.ofNanos(System.nanoTime() - start));
    }

    static void checkUniversalRules(String what, Reply reply) {
        assertThat(reply.header("Server")).as("%s: Server header", what).contains("testbed");
        assertThat(reply.header("Date")).as("%s: Date header", what).isPresent();
        if (reply.status() != 204 && reply.status() != 304) {
            assertThat(reply.header("Content-Length")).as("%s: Content-Length (no chunking)", what)
                    .contains(Integer.toString(reply.body().length));
        }
        if (reply.status() >= 400) {
            assertProblem(what, reply, reply.status());
        }
    }

    /** A HEAD answer has the headers of the GET answer and no body. */
    static void checkHeadRules(String what, Reply reply) {
        assertThat(reply.header("Server")).as("%s: Server header", what).contains("testbed");
        assertThat(reply.header("Date")).as("%s: Date header", what).isPresent();
        assertThat(reply.body()).as("%s: no body", what).isEmpty();
        if (reply.status() >= 400) {
            assertThat(reply.header("Content-Type")).as("%s: problem media type", what)
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        }
    }

    /** The problem body rules of docs/CONTRACT.md ("Errors"), for an error with this status. */
    static void assertProblem(String what, Reply reply, int status) {
        assertThat(reply.status()).as("%s: status; body %s", what, reply.text()).isEqualTo(status);
        assertThat(reply.header("Content-Type")).as("%s: problem media type", what)
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        String text = reply.text();
        assertThat(text).as("%s: no stack trace or HTML", what)
                .doesNotContain("Exception").doesNotContain("\tat ").doesNotContainIgnoringCase("<html");
        JsonNode problem = reply.json();
        assertThat(problem.path("type").asText()).as("%s: type", what).isEqualTo("about:blank");
        assertThat(problem.path("title").asText()).as("%s: title", what).isNotBlank();
        assertThat(problem.path("status").asInt()).as("%s: status member", what).isEqualTo(status);
        assertThat(problem.path("detail").isTextual()).as("%s: detail", what).isTrue();
        if (status == 503) {
            assertThat(reply.header("Retry-After")).as("%s: Retry-After on 503", what).isPresent();
        }
    }
}
