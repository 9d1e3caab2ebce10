package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.contract.HttpProbe.assertProblem;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.contract.HttpProbe.Reply;
import org.testbed.variant.Variant;

/**
 * The black-box HTTP contract of docs/CONTRACT.md, run once per variant of {@code variants.conf} against
 * its packaged jar started as a real process, with a real memcached this suite controls. Nothing
 * here knows which variant it talks to. Fault tests run last and leave memcached running.
 */
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(ContractSummary.class)
@StartedVariant
class HttpContractIT {
    private static final int MAX_BODY = 65536;

    private final HttpProbe http;
    private final Variant variant;
    private final RunningVariant running;

    HttpContractIT(Variant variant, RunningVariant running) {
        this.variant = variant;
        this.running = running;
        this.http = running.http;
    }

    @BeforeParameterizedClassInvocation
    static void begin(Variant variant) {
        ContractSummary.begin(variant.name());
    }

    @AfterParameterizedClassInvocation
    static void end() {
        ContractSummary.end("contract suite");
    }

    private static String newId() {
        return Items.newId("contract");
    }

    private static String item(String name, String payload) {
        return Items.item(name, payload);
    }

    private static String path(String id) {
        return Items.path(id);
    }

    private Reply create(String id, String name, String payload) {
        Reply reply = http.put(path(id), item(name, payload));
        assertThat(reply.status()).as("PUT %s: %s", id, reply.text()).isEqualTo(201);
        return reply;
    }

    private void assertAbsent(String id) {
        assertThat(http.get(path(id)).status()).as("GET %s after a rejected request", id).isEqualTo(404);
    }

    private void assertStored(String id, String name, String payload) {
        Reply reply = http.get(path(id));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("name").asText()).isEqualTo(name);
        assertThat(reply.json().path("payload").asText()).isEqualTo(payload);
    }

    // ---- PUT ----

    @Test
    void putCreatesTheItemWithLocationAndEtag() {
        String id = newId();
        Reply reply = http.put(path(id), item("first", "hello"));

        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.header("Location")).hasValueSatisfying(location -> assertThat(location).endsWith(path(id)));
        assertThat(reply.etag()).matches("\"[^\"]+\"");
        assertThat(reply.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        JsonNode body = reply.json();
        assertThat(body.path("id").asText()).isEqualTo(id);
        assertThat(body.path("name").asText()).isEqualTo("first");
        assertThat(body.path("payload").asText()).isEqualTo("hello");
        assertThat(body.size()).isEqualTo(3);
    }

    @Test
    void anAbsentOrNullPayloadIsStoredAsEmpty() {
        String absent = newId();
        assertThat(http.put(path(absent), "{\"name\":\"n\"}").status()).isEqualTo(201);
        assertStored(absent, "n", "");
        String nul = newId();
        assertThat(http.put(path(nul), "{\"name\":\"n\",\"payload\":null}").status()).isEqualTo(201);
        assertStored(nul, "n", "");
    }

    @Test
    void putOfAnExistingIdIs409AndKeepsTheItem() {
        String id = newId();
        create(id, "original", "p");
        assertProblem("PUT existing", http.put(path(id), item("other", "q")), 409);
        assertStored(id, "original", "p");
    }

    @Test
    void idsOfUpTo200UnreservedCharactersAreAccepted() {
        String longest = "A-z_0.9~" + "x".repeat(192);
        assertThat(longest).hasSize(200);
        create(longest, "n", "p");
        assertThat(http.get(path(longest)).json().path("id").asText()).isEqualTo(longest);
    }

    @Test
    void badIdsAre400OnEveryMethod() {
        List<String> badIds = List.of("x".repeat(201), "a%20b", "%41", "a:b", "a'b", "a!b", "%C3%A9", "a@b", "a+b");
        for (String id : badIds) {
            assertProblem("GET " + id, http.get(path(id)), 400);
            assertProblem("PUT " + id, http.put(path(id), item("n", "p")), 400);
            assertProblem("POST " + id, http.post(path(id), item("n", "p"), Map.of()), 400);
            assertProblem("DELETE " + id, http.delete(path(id)), 400);
        }
    }

    @Test
    void invalidBodiesAre400AndStoreNothing() {
        Map<String, byte[]> bodies = new LinkedHashMap<>();
        for (String json : List.of("", "not json", "[]", "\"name\"", "{}", "{\"payload\":\"p\"}", "{\"name\":\"\"}",
                "{\"name\":5}", "{\"name\":true}", "{\"name\":null}", "{\"name\":[\"a\"]}", "{\"name\":{\"a\":1}}",
                "{\"name\":\"a\",\"payload\":5}", "{\"name\":\"a\",\"payload\":{}}", "{\"name\":\"a\",\"extra\":1}",
                "{\"name\":\"a\",\"name\":\"b\"}", "{\"name\":\"a\"} trailing", "{\"name\":\"a\"}{}", "{\"name\":\"a\"",
                "{\"name\":\"a\",\"id\":\"someone-else\"}", "{\"name\":\"" + "n".repeat(201) + "\"}",
                "{\"name\":" + "[".repeat(500) + "]".repeat(500) + "}", "{\"name\":\"a\u0001b\"}")) {
            bodies.put(json.length() > 60 ? json.substring(0, 60) + "…" : json, json.getBytes(StandardCharsets.UTF_8));
        }
        bodies.put("invalid UTF-8", new byte[] {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'});
        for (Map.Entry<String, byte[]> body : bodies.entrySet()) {
            String id = newId();
            Reply reply = http.send("PUT", path(id), "application/json", body.getValue(), Map.of());
            assertProblem("PUT body " + body.getKey(), reply, 400);
            assertAbsent(id);
        }
    }

    @Test
    void namesAreCountedInCharactersNotBytes() {
        String id = newId();
        String name = "é".repeat(199) + "😀";
        assertThat(http.put(path(id), "{\"name\":\"" + name + "\"}").status()).isEqualTo(201);
        assertThat(http.get(path(id)).json().path("name").asText()).isEqualTo(name);
        String tooLong = newId();
        assertProblem("201 characters", http.put(path(tooLong), "{\"name\":\"" + "é".repeat(201) + "\"}"), 400);
        assertAbsent(tooLong);
    }

    @Test
    void bodiesUpToTheLimitAreAcceptedAndLargerOnesAre413() {
        String atLimit = newId();
        String fits = bodyOfExactly(MAX_BODY);
        assertThat(http.put(path(atLimit), fits).status()).isEqualTo(201);

        String over = newId();
        assertProblem("PUT over the limit", http.put(path(over), bodyOfExactly(MAX_BODY + 1)), 413);
        assertAbsent(over);

        assertProblem("POST over the limit", http.post(path(atLimit), bodyOfExactly(MAX_BODY + 1), Map.of()), 413);
        assertThat(http.get(path(atLimit)).json().path("payload").asText())
                .hasSize(MAX_BODY - BODY_PREFIX.length() - BODY_SUFFIX.length());
    }

    /**
     * A body refused from the headers alone is still on the wire when the answer is ready; a server
     * that then closes the connection over it makes the kernel reset it, and the client can lose
     * the answer (Jetty lost about one 413 in twenty this way). 75 refusals, each must arrive.
     */
    @Test
    void refusedBodiesAreDrainedSoEveryAnswerArrives() {
        byte[] oversized = bodyOfExactly(MAX_BODY + 4096).getBytes(StandardCharsets.UTF_8);
        byte[] large = bodyOfExactly(MAX_BODY / 2).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 25; i++) {
            String id = newId();
            assertProblem("oversized PUT #" + i, http.send("PUT", path(id), "application/json", oversized, Map.of()), 413);
            assertProblem("PUT as text/plain #" + i, http.send("PUT", path(id), "text/plain", large, Map.of()), 415);
            assertProblem("PUT to a bad id #" + i, http.send("PUT", path("bad%20id"), "application/json", large, Map.of()), 400);
            assertAbsent(id);
        }
    }

    private static final String BODY_PREFIX = "{\"name\":\"n\",\"payload\":\"";
    private static final String BODY_SUFFIX = "\"}";

    /** A valid item body of exactly {@code bytes} bytes (ASCII). */
    private static String bodyOfExactly(int bytes) {
        return BODY_PREFIX + "p".repeat(bytes - BODY_PREFIX.length() - BODY_SUFFIX.length()) + BODY_SUFFIX;
    }

    @Test
    void bodiesThatAreNotJsonAre415AndStoreNothing() {
        byte[] valid = item("n", "p").getBytes(StandardCharsets.UTF_8);
        for (String type : new String[] {null, "text/plain", "application/x-www-form-urlencoded",
                "application/json; charset=iso-8859-1", "application/jsonx"}) {
            String id = newId();
            assertProblem("PUT as " + type, http.send("PUT", path(id), type, valid, Map.of()), 415);
            assertAbsent(id);
        }
        String id = newId();
        assertThat(http.send("PUT", path(id), "application/json; charset=UTF-8", valid, Map.of()).status()).isEqualTo(201);
        assertProblem("POST as text/plain", http.send("POST", path(id), "text/plain", valid, Map.of()), 415);
    }

    // ---- GET ----

    @Test
    void getReturnsTheStoredItemWithTheEtagOfItsWrite() {
        String id = newId();
        Reply created = create(id, "name", "payload");
        Reply read = http.get(path(id));
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.etag()).isEqualTo(created.etag());
        assertThat(read.body()).isEqualTo(created.body());
        assertThat(read.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    }

    @Test
    void getOfAnAbsentItemIs404() {
        assertProblem("GET absent", http.get(path(newId())), 404);
    }

    // ---- POST ----

    @Test
    void postReplacesTheItemAndChangesItsEtag() {
        String id = newId();
        Reply created = create(id, "before", "1");
        Reply updated = http.post(path(id), item("after", "2"), Map.of());
        assertThat(updated.status()).isEqualTo(200);
        assertThat(updated.etag()).isNotEqualTo(created.etag());
        assertThat(updated.json().path("name").asText()).isEqualTo("after");
        Reply read = http.get(path(id));
        assertThat(read.etag()).isEqualTo(updated.etag());
        assertStored(id, "after", "2");
    }

    @Test
    void postOfAnAbsentItemIs404AndCreatesNothing() {
        String id = newId();
        assertProblem("POST absent", http.post(path(id), item("n", "p"), Map.of()), 404);
        assertAbsent(id);
        assertProblem("POST absent If-Match *", http.post(path(id), item("n", "p"), Map.of("If-Match", "*")), 404);
        assertAbsent(id);
    }

    @Test
    void ifMatchIsACompareAndSwap() {
        String id = newId();
        String first = create(id, "v1", "p").etag();

        Reply second = http.post(path(id), item("v2", "p"), Map.of("If-Match", first));
        assertThat(second.status()).isEqualTo(200);

        assertProblem("stale If-Match", http.post(path(id), item("lost", "p"), Map.of("If-Match", first)), 412);
        assertStored(id, "v2", "p");
        assertThat(http.get(path(id)).etag()).isEqualTo(second.etag());

        assertProblem("malformed If-Match", http.post(path(id), item("lost", "p"), Map.of("If-Match", "garbage")), 412);
        assertProblem("weak If-Match", http.post(path(id), item("lost", "p"), Map.of("If-Match", "W/" + second.etag())), 412);
        assertStored(id, "v2", "p");

        assertThat(http.post(path(id), item("v3", "p"), Map.of("If-Match", "*")).status()).isEqualTo(200);
        assertStored(id, "v3", "p");
    }

    @Test
    void rejectedUpdatesLeaveTheItemAsItWas() {
        String id = newId();
        String etag = create(id, "kept", "intact").etag();
        assertProblem("POST bad JSON", http.post(path(id), "{\"name\":", Map.of()), 400);
        assertProblem("POST bad field", http.post(path(id), "{\"name\":7}", Map.of()), 400);
        assertProblem("POST not JSON", http.send("POST", path(id), "text/plain", "x".getBytes(StandardCharsets.UTF_8), Map.of()), 415);
        assertProblem("POST too large", http.post(path(id), bodyOfExactly(MAX_BODY + 1), Map.of()), 413);
        assertStored(id, "kept", "intact");
        assertThat(http.get(path(id)).etag()).isEqualTo(etag);
    }

    // ---- DELETE ----

    @Test
    void deleteRemovesTheItem() {
        String id = newId();
        create(id, "n", "p");
        Reply deleted = http.delete(path(id));
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(deleted.body()).isEmpty();
        assertAbsent(id);
        assertProblem("DELETE again", http.delete(path(id)), 404);
    }

    // ---- the fixed endpoints ----

    @Test
    void plaintextAnswersTechEmpowerStyle() {
        Reply reply = http.get("/testbed/plaintext");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text()).isEqualTo("Hello, World!");
        assertThat(reply.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
    }

    @Test
    void jsonAnswersTechEmpowerStyle() {
        Reply reply = http.get("/testbed/json");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(reply.json()).isEqualTo(HttpProbe.JSON.createObjectNode().put("message", "Hello, World!"));
    }

    @Test
    void healthIsUpAndNamesTheVariant() {
        Reply reply = http.get("/testbed/health");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("status").asText()).isEqualTo("UP");
        assertThat(reply.json().path("variant").asText()).isEqualTo(variant.name());
    }

    @Test
    void delayAnswersAfterAtLeastTheDelay() {
        Reply reply = http.get("/testbed/delay?ms=300");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text()).isEqualTo("Hello World!");
        assertThat(reply.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(http.get("/testbed/delay?ms=0").status()).isEqualTo(200);
    }

    @Test
    void delaysOutsideZeroToTenSecondsAre400() {
        for (String query : List.of("", "?ms=", "?ms=-1", "?ms=10001", "?ms=abc", "?ms=1.5", "?ms=99999999999999999999")) {
            assertProblem("delay" + query, http.get("/testbed/delay" + query), 400);
        }
    }

    @Test
    void unknownPathsAre404() {
        for (String path : List.of("/", "/testbed", "/testbed/", "/testbed/items", "/testbed/items/", "/testbed/nope",
                "/testbed/items/a/b", "/other", "/testbed/plaintext/x", "/error", "/actuator/health")) {
            assertProblem("GET " + path, http.get(path), 404);
        }
    }

    @Test
    void wrongMethodsAre405WithAllow() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("PATCH " + path("some-id"), "GET, PUT, POST, DELETE");
        cases.put("DELETE /testbed/plaintext", "GET");
        cases.put("POST /testbed/json", "GET");
        cases.put("PUT /testbed/health", "GET");
        cases.put("DELETE /testbed/delay?ms=1", "GET");
        // Methods outside the table too, which some frameworks answer by themselves.
        cases.put("HEAD /testbed/plaintext", "GET");
        cases.put("OPTIONS /testbed/json", "GET");
        cases.put("OPTIONS " + path("some-id"), "GET, PUT, POST, DELETE");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            String[] request = c.getKey().split(" ");
            Reply reply = http.send(request[0], request[1], null, null, Map.of());
            if (request[0].equals("HEAD")) {
                assertThat(reply.status()).as(c.getKey()).isEqualTo(405); // no body to check
            } else {
                assertProblem(c.getKey(), reply, 405);
            }
            assertThat(reply.header("Allow")).as("%s: Allow", c.getKey()).contains(c.getValue());
        }
    }

    @Test
    void connectionsAreKeptAliveAcrossRequests() throws IOException {
        String id = newId();
        try (RawConnection connection = new RawConnection(http.base())) {
            byte[] body = item("kept", "alive").getBytes(StandardCharsets.UTF_8);
            assertThat(connection.exchange("PUT", path(id), "application/json", body).status()).isEqualTo(201);
            for (int i = 0; i < 3; i++) {
                RawConnection.RawResponse plain = connection.exchange("GET", "/testbed/plaintext", null, null);
                assertThat(plain.status()).isEqualTo(200);
                assertThat(new String(plain.body(), StandardCharsets.UTF_8)).isEqualTo("Hello, World!");
                RawConnection.RawResponse read = connection.exchange("GET", path(id), null, null);
                assertThat(read.status()).isEqualTo(200);
                assertThat(read.header("Content-Length")).isEqualTo(Integer.toString(read.body().length));
            }
            assertThat(connection.exchange("DELETE", path(id), null, null).status()).isEqualTo(204);
            assertThat(connection.isOpen()).as("connection still open after 9 requests").isTrue();
        }
    }

    // ---- faults: Memcached hung, then dead; the service must answer 503 fast and recover alone ----

    @Test
    @Order(Order.DEFAULT + 1)
    void aHungMemcachedGives503WithinTheTimeoutAndTheServiceRecovers() {
        FaultDrill drill = new FaultDrill(running);
        drill.hung(drill::assertHungContract);
    }

    @Test
    @Order(Order.DEFAULT + 2)
    void aDeadMemcachedGives503FastStoresNothingAndTheServiceRecoversWhenItIsBack() {
        FaultDrill drill = new FaultDrill(running);
        drill.dead(drill::assertDeadContract);
    }
}
