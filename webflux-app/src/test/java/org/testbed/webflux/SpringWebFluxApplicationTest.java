package org.testbed.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.junit.EndpointSmoke;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;

/**
 * The app started in-process through {@code newServer}, on a free port, against a real memcached:
 * a quick check of the wiring. The whole contract runs against the packaged jar in testbed-contract.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringWebFluxApplicationTest {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private TestbedConfig config;
    private ConfigurableApplicationContext app;
    private URI base;

    @BeforeAll
    void start(MemcachedProcess memcached) {
        config = TestbedConfig.parse(SpringWebFluxApplication.FAMILY, new String[] {"--host", "127.0.0.1", "--port", "0",
                "--memcached-servers", memcached.address()}, Map.of(), new Properties(), Mode.ASYNC);
        app = SpringWebFluxApplication.newServer(config);
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        base = URI.create("http://127.0.0.1:" + port);
    }

    @AfterAll
    void stop() {
        app.close();
    }

    @Test
    void everyKindOfRequestIsAnsweredAsTheContractSays() throws Exception {
        EndpointSmoke.check(base, "spring-webflux", config.maxBody());
    }

    @Test
    void webFluxsOwnLeniencesAreRefusedAsOnEveryVariant() throws Exception {
        // A path parameter WebFlux would match as /testbed/json, and HEAD, which it answers on any GET.
        HttpResponse<String> pathParameter = send(HttpRequest.newBuilder(base.resolve("/testbed/json;x=1")));
        assertThat(pathParameter.statusCode()).isEqualTo(404);
        assertThat(pathParameter.headers().firstValue("Content-Type")).contains("application/problem+json");
        HttpResponse<String> head = send(HttpRequest.newBuilder(base.resolve("/testbed/json"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(405);
        assertThat(head.headers().firstValue("Allow")).contains("GET");
    }

    @Test
    void metricsAreA404WhileOff() throws Exception {
        HttpResponse<String> metrics = send(HttpRequest.newBuilder(base.resolve("/testbed/metrics")));
        assertThat(metrics.statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
