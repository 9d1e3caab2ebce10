package org.testbed.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A quick in-process check of a server variant: one request of each kind the contract has (fixed
 * endpoints, delay, the CRUD round trip with ETags, and the 400/404/405/409/412/413/415 problems,
 * plus an error the container answers by itself), each with the headers every answer carries.
 * For unit tests that start a variant's {@code newServer} on port 0; the full contract is the
 * contract suite's job ({@code testbed-contract}).
 *
 * <pre>{@code
 * EndpointSmoke.check(URI.create("http://127.0.0.1:" + port), "servlet-jetty-async", maxBody);
 * }</pre>
 */
public final class EndpointSmoke {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    private EndpointSmoke(URI base) {
        this.base = base;
    }

    /** Runs every check against {@code base}; {@code maxBody} is the server's TESTBED_MAX_BODY. */
    public static void check(URI base, String variant, int maxBody) throws Exception {
        EndpointSmoke smoke = new EndpointSmoke(base);
        smoke.fixedEndpoints(variant);
        smoke.itemRoundTrip();
        smoke.rejections(maxBody);
        smoke.containerError();
    }

    private void fixedEndpoints(String variant) throws Exception {
        HttpResponse<String> plaintext = send("GET", "/testbed/plaintext", null, null);
        assertThat(plaintext.statusCode()).isEqualTo(200);
        assertThat(plaintext.body()).isEqualTo("Hello, World!");
        assertThat(plaintext.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));

        assertThat(send("GET", "/testbed/json", null, null).body()).isEqualTo("{\"message\":\"Hello, World!\"}");
        assertThat(send("GET", "/testbed/health", null, null).body())
                .isEqualTo("{\"status\":\"UP\",\"variant\":\"" + variant + "\"}");

        long start = System.nanoTime();
        HttpResponse<String> delay = send("GET", "/testbed/delay?ms=100", null, null);
        assertThat(delay.body()).isEqualTo("Hello World!");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
        problem(send("GET", "/testbed/delay?ms=x", null, null), 400);
    }

    private void itemRoundTrip() throws Exception {
        String path = "/testbed/items/smoke-" + System.nanoTime();
        HttpResponse<String> created = send("PUT", path, "application/json", "{\"name\":\"a\",\"payload\":\"p\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).contains(path);
        String etag = created.headers().firstValue("ETag").orElseThrow();
        problem(send("PUT", path, "application/json", "{\"name\":\"b\"}"), 409);

        HttpResponse<String> read = send("GET", path, null, null);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.headers().firstValue("ETag")).contains(etag);
        assertThat(read.body()).contains("\"name\":\"a\"");

        HttpResponse<String> updated = sendWithIfMatch(path, "{\"name\":\"c\"}", etag);
        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(updated.headers().firstValue("ETag").orElseThrow()).isNotEqualTo(etag);
        problem(sendWithIfMatch(path, "{\"name\":\"d\"}", etag), 412);

        HttpResponse<String> deleted = send("DELETE", path, null, null);
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(deleted.body()).isEmpty();
        problem(send("GET", path, null, null), 404);
        problem(send("POST", path, "application/json", "{\"name\":\"e\"}"), 404);
    }

    private void rejections(int maxBody) throws Exception {
        String path = "/testbed/items/rejected-" + System.nanoTime();
        problem(send("GET", "/testbed/items/bad%20id", null, null), 400);
        problem(send("PUT", path, "application/json", "{\"name\":"), 400);
        problem(send("PUT", path, "text/plain", "{\"name\":\"a\"}"), 415);
        String tooLarge = "{\"name\":\"a\",\"payload\":\"" + "x".repeat(maxBody) + "\"}";
        problem(send("PUT", path, "application/json", tooLarge), 413);
        problem(sendChunked(path, tooLarge), 413);
        assertThat(sendChunked(path, "{\"name\":\"chunked\"}").statusCode()).isEqualTo(201);
        problem(send("GET", "/testbed/nothing-here", null, null), 404);
        HttpResponse<String> wrongMethod = send("DELETE", "/testbed/json", null, null);
        problem(wrongMethod, 405);
        assertThat(wrongMethod.headers().firstValue("Allow")).contains("GET");
    }

    /** A request line the container's parser rejects: its own error page must be a problem too. */
    private void containerError() throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /testbed/json HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 400").containsIgnoringCase("\r\nContent-Type: application/problem+json")
                    .containsIgnoringCase("\r\nServer: testbed").contains("\"status\":400").doesNotContainIgnoringCase("<html");
        }
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return checked(client.send(request.build(), HttpResponse.BodyHandlers.ofString()));
    }

    private HttpResponse<String> sendWithIfMatch(String path, String body, String etag) throws Exception {
        return checked(client.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("If-Match", etag).build(),
                HttpResponse.BodyHandlers.ofString()));
    }

    /** A body of unknown length: the JDK client sends it chunked. */
    private HttpResponse<String> sendChunked(String path, String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return checked(client.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10))
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString()));
    }

    /** The headers every answer carries. */
    private static HttpResponse<String> checked(HttpResponse<String> response) {
        String what = response.request().method() + " " + response.uri();
        assertThat(response.headers().firstValue("Server")).as("%s: Server", what).contains("testbed");
        assertThat(response.headers().firstValue("Date")).as("%s: Date", what).isPresent();
        if (response.statusCode() != 204) {
            assertThat(response.headers().firstValue("Content-Length")).as("%s: Content-Length", what)
                    .contains(Integer.toString(response.body().getBytes(StandardCharsets.UTF_8).length));
        }
        return response;
    }

    private static void problem(HttpResponse<String> response, int status) {
        String what = response.request().method() + " " + response.uri();
        assertThat(response.statusCode()).as("%s: %s", what, response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).as(what).contains("application/problem+json");
        assertThat(response.body()).as(what).startsWith("{\"type\":\"about:blank\",").contains("\"status\":" + status);
    }
}
