package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.contract.HttpProbe.assertProblem;

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
@ParallelSafe
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(ContractSummary.class)
@StartedVariant
class HttpContractIT {
    private final HttpProbe http;
    private final Variant variant;
    private final RunningVariant running;
    private final ContractChecks checks;

    HttpContractIT(Variant variant, RunningVariant running) {
        this.variant = variant;
        this.running = running;
        this.http = running.http;
        this.checks = new ContractChecks(running.http, variant.name());
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

    // ---- PUT ----

    @Test
    void putCreatesTheItemWithLocationAndEtag() {
        checks.putCreatesTheItemWithLocationAndEtag();
    }

    @Test
    void anAbsentOrNullPayloadIsStoredAsEmpty() {
        String absent = newId();
        assertThat(http.put(path(absent), "{\"name\":\"n\"}").status()).isEqualTo(201);
        checks.assertStored(absent, "n", "");
        String nul = newId();
        assertThat(http.put(path(nul), "{\"name\":\"n\",\"payload\":null}").status()).isEqualTo(201);
        checks.assertStored(nul, "n", "");
    }

    @Test
    void putOfAnExistingIdIs409AndKeepsTheItem() {
        String id = newId();
        checks.create(id, "original", "p");
        assertProblem("PUT existing", http.put(path(id), item("other", "q")), 409);
        checks.assertStored(id, "original", "p");
    }

    @Test
    void idsOfUpTo200UnreservedCharactersAreAccepted() {
        String longest = "A-z_0.9~" + "x".repeat(192);
        assertThat(longest).hasSize(200);
        checks.create(longest, "n", "p");
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
            checks.assertAbsent(id);
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
        checks.assertAbsent(tooLong);
    }

    @Test
    void bodiesUpToTheLimitAreAcceptedAndLargerOnesAre413() {
        String atLimit = newId();
        String fits = ContractChecks.bodyOfExactly(ContractChecks.MAX_BODY);
        assertThat(http.put(path(atLimit), fits).status()).isEqualTo(201);

        String over = newId();
        assertProblem("PUT over the limit", http.put(path(over), ContractChecks.bodyOfExactly(ContractChecks.MAX_BODY + 1)), 413);
        checks.assertAbsent(over);

        assertProblem("POST over the limit", http.post(path(atLimit), ContractChecks.bodyOfExactly(ContractChecks.MAX_BODY + 1), Map.of()), 413);
        assertThat(http.get(path(atLimit)).json().path("payload").asText())
                .hasSize(ContractChecks.MAX_BODY - ContractChecks.BODY_PREFIX.length() - ContractChecks.BODY_SUFFIX.length());
    }

    /**
     * A body refused from the headers alone is still on the wire when the answer is ready; a server
     * that then closes the connection over it makes the kernel reset it, and the client can lose
     * the answer (Jetty lost about one 413 in twenty this way). 75 refusals, each must arrive.
     */
    @Test
    void refusedBodiesAreDrainedSoEveryAnswerArrives() {
        byte[] oversized = ContractChecks.bodyOfExactly(ContractChecks.MAX_BODY + 4096).getBytes(StandardCharsets.UTF_8);
        byte[] large = ContractChecks.bodyOfExactly(ContractChecks.MAX_BODY / 2).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 25; i++) {
            String id = newId();
            assertProblem("oversized PUT #" + i, http.send("PUT", path(id), "application/json", oversized, Map.of()), 413);
            assertProblem("PUT as text/plain #" + i, http.send("PUT", path(id), "text/plain", large, Map.of()), 415);
            assertProblem("PUT to a bad id #" + i, http.send("PUT", path("bad%20id"), "application/json", large, Map.of()), 400);
            checks.assertAbsent(id);
        }
    }

    @Test
    void bodiesThatAreNotJsonAre415AndStoreNothing() {
        checks.bodiesThatAreNotJsonAre415AndStoreNothing();
    }

    // ---- GET ----

    @Test
    void getReturnsTheStoredItemWithTheEtagOfItsWrite() {
        checks.getReturnsTheStoredItemWithTheEtagOfItsWrite();
    }

    @Test
    void getOfAnAbsentItemIs404() {
        checks.getOfAnAbsentItemIs404();
    }

    // ---- POST ----

    @Test
    void postReplacesTheItemAndChangesItsEtag() {
        checks.postReplacesTheItemAndChangesItsEtag();
    }

    @Test
    void postOfAnAbsentItemIs404AndCreatesNothing() {
        String id = newId();
        assertProblem("POST absent", http.post(path(id), item("n", "p"), Map.of()), 404);
        checks.assertAbsent(id);
        assertProblem("POST absent If-Match *", http.post(path(id), item("n", "p"), Map.of("If-Match", "*")), 404);
        checks.assertAbsent(id);
    }

    @Test
    void ifMatchIsACompareAndSwap() {
        checks.ifMatchIsACompareAndSwap();
    }

    @Test
    void rejectedUpdatesLeaveTheItemAsItWas() {
        checks.rejectedUpdatesLeaveTheItemAsItWas();
    }

    // ---- DELETE ----

    @Test
    void deleteRemovesTheItem() {
        checks.deleteRemovesTheItem();
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
        checks.healthIsUpAndNamesTheVariant();
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
