package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.contract.HttpProbe.assertProblem;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.contract.HttpProbe.Reply;
import org.testbed.variant.Variant;

/**
 * The contract over HTTPS ({@code --tls}, a self-signed certificate made at start), on every
 * variant: the CRUD round trip, the fixed endpoints, a problem body, and keep-alive — the point of
 * the x86-vs-arm64 study's HTTPS pitfall is that a handshake per request measures the handshake.
 */
@ParallelSafe
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
@ExtendWith(ContractSummary.class)
@StartedVariant(args = "--tls")
class HttpsContractIT {
    private final HttpProbe https;

    HttpsContractIT(Variant variant, RunningVariant running) {
        assertThat(running.process.baseUri().getScheme()).as("ready line of a TLS server").isEqualTo("https");
        this.https = running.http;
    }

    @BeforeParameterizedClassInvocation
    static void begin(Variant variant) {
        ContractSummary.begin(variant.name());
    }

    @AfterParameterizedClassInvocation
    static void end() {
        ContractSummary.end("https contract");
    }

    @Test
    void crudRoundTripOverHttps() {
        String id = "tls-" + System.nanoTime();
        String path = "/testbed/items/" + id;
        Reply created = https.put(path, "{\"name\":\"secure\",\"payload\":\"p\"}");
        assertThat(created.status()).isEqualTo(201);
        Reply read = https.get(path);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.etag()).isEqualTo(created.etag());
        Reply updated = https.post(path, "{\"name\":\"changed\"}", Map.of("If-Match", created.etag()));
        assertThat(updated.status()).isEqualTo(200);
        assertProblem("stale If-Match over TLS", https.post(path, "{\"name\":\"x\"}", Map.of("If-Match", created.etag())), 412);
        assertThat(https.delete(path).status()).isEqualTo(204);
        assertProblem("GET deleted over TLS", https.get(path), 404);
    }

    @Test
    void fixedEndpointsOverHttps() {
        assertThat(https.get("/testbed/plaintext").text()).isEqualTo("Hello, World!");
        assertThat(https.get("/testbed/json").json().path("message").asText()).isEqualTo("Hello, World!");
        assertThat(https.get("/testbed/health").json().path("status").asText()).isEqualTo("UP");
        assertProblem("unknown path over TLS", https.get("/testbed/nope"), 404);
    }

    @Test
    void oneTlsConnectionServesManyRequests() throws IOException {
        try (RawConnection connection = new RawConnection(https.base())) {
            for (int i = 0; i < 5; i++) {
                RawConnection.RawResponse reply = connection.exchange("GET", "/testbed/plaintext", null, null);
                assertThat(reply.status()).isEqualTo(200);
                assertThat(new String(reply.body(), StandardCharsets.UTF_8)).isEqualTo("Hello, World!");
            }
            assertThat(connection.isOpen()).as("TLS connection kept alive after 5 requests").isTrue();
            assertThat(connection.socket()).isInstanceOf(SSLSocket.class);
        }
    }
}
