package org.testbed.helidon;

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
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.junit.EndpointSmoke;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.server.ServerStartup;

/**
 * helidon-se started in-process through {@link HelidonSeServer#start}, on a free port, against a
 * real memcached: a quick check of the wiring. The whole contract runs against the packaged jar in
 * testbed-contract.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HelidonSeServerTest {
    private static final int MAX_BODY = 4096;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private HelidonSeServer server;
    private URI base;

    @BeforeAll
    void start(MemcachedProcess memcached) {
        TestbedConfig config = TestbedConfig.parse(HelidonSeServer.VARIANT, new String[] {"--host", "127.0.0.1",
                "--port", "0", "--max-body", Integer.toString(MAX_BODY), "--memcached-servers", memcached.address()},
                Map.of(), new Properties(), Mode.VIRTUAL);
        server = HelidonSeServer.start(config, ServerStartup.connectStore(config));
        base = URI.create("http://127.0.0.1:" + server.port());
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @Test
    void everyKindOfRequestIsAnsweredAsTheContractSays() throws Exception {
        EndpointSmoke.check(base, HelidonSeServer.VARIANT, MAX_BODY);
    }

    @Test
    void helidonsRouterLeniencesAreRefusedAsOnEveryVariant() throws Exception {
        // A trailing slash, a dot segment and HEAD: the raw path routes exactly, HEAD is not a GET.
        for (String path : new String[] {"/testbed/json/", "/testbed/items/../json", "/testbed/json;x=1"}) {
            HttpResponse<String> lenient = send(HttpRequest.newBuilder(base.resolve(path)));
            assertThat(lenient.statusCode()).as(path).isEqualTo(404);
            assertThat(lenient.headers().firstValue("Content-Type")).as(path).contains("application/problem+json");
        }
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
