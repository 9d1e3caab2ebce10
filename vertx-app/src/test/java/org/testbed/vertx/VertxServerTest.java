package org.testbed.vertx;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testbed.config.TestbedConfig;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;

/**
 * The vertx server started in-process by its factory on 127.0.0.1, port 0, against a real
 * memcached: one request per kind of endpoint, and the problem bodies of a 404 and a 405. The
 * whole contract is {@code testbed-contract}'s job; this checks the adapter is wired.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
class VertxServerTest {
    private static VertxServer server;
    private static HttpClient client;
    private static URI base;

    @BeforeAll
    static void start(MemcachedProcess memcached) {
        TestbedConfig config = TestbedConfig.parse("vertx", new String[] {"--mode", "async", "--host", "127.0.0.1",
                "--port", "0", "--memcached-servers", memcached.address(), "--memcached-timeout-ms", "1000"},
                Map.of(), new Properties());
        server = VertxServer.newServer(config);
        base = URI.create("http://127.0.0.1:" + server.port());
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static HttpResponse<String> send(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10))
                .method(method, json == null ? BodyPublishers.noBody() : BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = client.send(request.build(), BodyHandlers.ofString());
        assertThat(response.headers().firstValue("Server")).contains("testbed");
        assertThat(response.headers().firstValue("Date")).isPresent();
        return response;
    }

    private static void assertProblem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(response.body()).startsWith("{\"type\":\"about:blank\"").contains("\"status\":" + status);
    }

    @Test
    void listensOnAPortAndNamesItsTransport() {
        assertThat(server.port()).isPositive();
        assertThat(server.eventLoops()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(server.transport()).isIn("epoll", "kqueue", "io_uring", "nio");
    }

    @Test
    void fixedEndpointsAnswer() throws Exception {
        HttpResponse<String> plaintext = send("GET", "/testbed/plaintext", null);
        assertThat(plaintext.statusCode()).isEqualTo(200);
        assertThat(plaintext.body()).isEqualTo("Hello, World!");
        assertThat(plaintext.headers().firstValue("Content-Length")).contains("13");

        HttpResponse<String> json = send("GET", "/testbed/json", null);
        assertThat(json.body()).isEqualTo("{\"message\":\"Hello, World!\"}");
        assertThat(json.headers().firstValue("Content-Type")).contains("application/json");

        HttpResponse<String> health = send("GET", "/testbed/health", null);
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("{\"status\":\"UP\",\"variant\":\"vertx\"}");

        long start = System.nanoTime();
        HttpResponse<String> delay = send("GET", "/testbed/delay?ms=100", null);
        assertThat(delay.body()).isEqualTo("Hello World!");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
        assertProblem(send("GET", "/testbed/delay?ms=10001", null), 400);
    }

    @Test
    void itemsGoThroughTheirWholeLife() throws Exception {
        String path = "/testbed/items/vertx-" + System.nanoTime();
        HttpResponse<String> created = send("PUT", path, "{\"name\":\"n\",\"payload\":\"p\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).contains(path);
        String etag = created.headers().firstValue("ETag").orElseThrow();

        HttpResponse<String> read = send("GET", path, null);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.headers().firstValue("ETag")).contains(etag);
        assertThat(read.body()).isEqualTo(created.body());

        HttpResponse<String> updated = send("POST", path, "{\"name\":\"m\"}");
        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(updated.headers().firstValue("ETag")).isPresent().isNotEqualTo(etag);

        assertThat(send("DELETE", path, null).statusCode()).isEqualTo(204);
        assertProblem(send("GET", path, null), 404);
        assertProblem(send("GET", "/testbed/items/a%41", null), 400);
    }

    @Test
    void unknownPathsAndWrongMethodsAreProblems() throws Exception {
        assertProblem(send("GET", "/testbed/nope", null), 404);
        assertProblem(send("GET", "/testbed/items/a/b", null), 404);

        HttpResponse<String> wrongMethod = send("PATCH", "/testbed/items/x", null);
        assertProblem(wrongMethod, 405);
        assertThat(wrongMethod.headers().firstValue("Allow")).contains("GET, PUT, POST, DELETE");
        assertThat(send("DELETE", "/testbed/plaintext", null).headers().firstValue("Allow")).contains("GET");
    }

    @Test
    void bodiesOverTheLimitAre413() throws Exception {
        String body = "{\"name\":\"n\",\"payload\":\"" + "p".repeat(70_000) + "\"}";
        assertProblem(send("PUT", "/testbed/items/too-large", body), 413);
        assertProblem(send("GET", "/testbed/items/too-large", null), 404);
    }
}
