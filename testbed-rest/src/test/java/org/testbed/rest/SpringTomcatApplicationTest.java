package org.testbed.rest;

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
import org.testbed.config.TestbedConfig;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;

/**
 * The app started in-process through {@code newServer}, on a free port, against a real memcached:
 * a quick check of the wiring. The whole contract runs against the packaged jar in testbed-contract.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringTomcatApplicationTest {
    private final HttpClient client = HttpClient.newHttpClient();
    private ConfigurableApplicationContext app;
    private URI base;

    @BeforeAll
    void start(MemcachedProcess memcached) {
        TestbedConfig config = TestbedConfig.parse("spring-tomcat", new String[] {"--host", "127.0.0.1", "--port", "0",
                "--memcached-servers", memcached.address()}, Map.of(), new Properties());
        app = SpringTomcatApplication.newServer(config);
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        base = URI.create("http://127.0.0.1:" + port);
    }

    @AfterAll
    void stop() {
        app.close();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void createsAndReadsAnItemThroughSpringMvc() throws Exception {
        HttpResponse<String> created = send(HttpRequest.newBuilder(base.resolve("/testbed/items/spring-1"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"n\",\"payload\":\"p\"}")));
        assertThat(created.statusCode()).isEqualTo(201);
        HttpResponse<String> read = send(HttpRequest.newBuilder(base.resolve("/testbed/items/spring-1")));
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.body()).isEqualTo("{\"id\":\"spring-1\",\"name\":\"n\",\"payload\":\"p\"}");
        assertThat(read.headers().firstValue("ETag")).isEqualTo(created.headers().firstValue("ETag"));
        assertThat(read.headers().firstValue("Server")).contains("testbed");
    }

    @Test
    void springsOwnErrorsAreProblemBodies() throws Exception {
        HttpResponse<String> missing = send(HttpRequest.newBuilder(base.resolve("/nothing/here")));
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("Content-Type")).contains("application/problem+json");
        HttpResponse<String> wrongMethod = send(HttpRequest.newBuilder(base.resolve("/testbed/json"))
                .DELETE());
        assertThat(wrongMethod.statusCode()).isEqualTo(405);
        assertThat(wrongMethod.headers().firstValue("Allow")).contains("GET");
        assertThat(send(HttpRequest.newBuilder(base.resolve("/testbed/health"))).body())
                .isEqualTo("{\"status\":\"UP\",\"variant\":\"spring-tomcat\"}");
    }
}
