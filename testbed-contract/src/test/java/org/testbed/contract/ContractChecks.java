package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.contract.HttpProbe.assertProblem;
import static org.testbed.contract.Items.item;
import static org.testbed.contract.Items.path;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.testbed.contract.HttpProbe.Reply;

/**
 * Contract checks that hold for any server speaking the contract, however it was launched: the
 * contract suite runs each as one of its tests, and the emulated arm64 suite runs a subset of them
 * against variants on an aarch64 JVM. Each check uses fresh ids, so they run in any order.
 */
final class ContractChecks {
    static final int MAX_BODY = 65536;
    static final String BODY_PREFIX = "{\"name\":\"n\",\"payload\":\"";
    static final String BODY_SUFFIX = "\"}";

    private final HttpProbe http;
    private final String variantName;

    ContractChecks(HttpProbe http, String variantName) {
        this.http = http;
        this.variantName = variantName;
    }

    private static String newId() {
        return Items.newId("contract");
    }

    Reply create(String id, String name, String payload) {
        Reply reply = http.put(path(id), item(name, payload));
        assertThat(reply.status()).as("PUT %s: %s", id, reply.text()).isEqualTo(201);
        return reply;
    }

    void assertAbsent(String id) {
        assertThat(http.get(path(id)).status()).as("GET %s after a rejected request", id).isEqualTo(404);
    }

    void assertStored(String id, String name, String payload) {
        Reply reply = http.get(path(id));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("name").asText()).isEqualTo(name);
        assertThat(reply.json().path("payload").asText()).isEqualTo(payload);
    }

    /** A valid item body of exactly {@code bytes} bytes (ASCII). */
    static String bodyOfExactly(int bytes) {
        return BODY_PREFIX + "p".repeat(bytes - BODY_PREFIX.length() - BODY_SUFFIX.length()) + BODY_SUFFIX;
    }

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

    void getReturnsTheStoredItemWithTheEtagOfItsWrite() {
        String id = newId();
        Reply created = create(id, "name", "payload");
        Reply read = http.get(path(id));
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.etag()).isEqualTo(created.etag());
        assertThat(read.body()).isEqualTo(created.body());
        assertThat(read.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    }

    void getOfAnAbsentItemIs404() {
        assertProblem("GET absent", http.get(path(newId())), 404);
    }

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
        // CAS 0 is what Memcached's binary protocol reads as "no CAS": taken at its word it would store unconditionally.
        assertProblem("If-Match \"0\"", http.post(path(id), item("lost", "p"), Map.of("If-Match", "\"0\"")), 412);
        assertProblem("If-Match \"0\" of an absent item", http.post(path(newId()), item("lost", "p"), Map.of("If-Match", "\"0\"")), 412);
        assertStored(id, "v2", "p");

        assertThat(http.post(path(id), item("v3", "p"), Map.of("If-Match", "*")).status()).isEqualTo(200);
        assertStored(id, "v3", "p");
    }

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

    void deleteRemovesTheItem() {
        String id = newId();
        create(id, "n", "p");
        Reply deleted = http.delete(path(id));
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(deleted.body()).isEmpty();
        assertAbsent(id);
        assertProblem("DELETE again", http.delete(path(id)), 404);
    }

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

    void healthIsUpAndNamesTheVariant() {
        Reply reply = http.get("/testbed/health");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("status").asText()).isEqualTo("UP");
        assertThat(reply.json().path("variant").asText()).isEqualTo(variantName);
    }
}
