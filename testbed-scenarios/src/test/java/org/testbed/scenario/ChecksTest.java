package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;

class ChecksTest {
    private static final Function<String, String> NO_HEADERS = name -> null;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void itemIsAcceptsTheCodecBytesAndAnyEquivalentLayout() {
        Item item = new Item("k1", "n", "p");
        Check.ItemIs check = new Check.ItemIs(item);
        assertThat(check.matches(ItemCodec.encode(item))).isTrue();
        assertThat(check.matches(utf8("{ \"payload\": \"p\", \"name\": \"n\", \"id\": \"k1\" }"))).isTrue();
        assertThat(check.matches(utf8("{\"id\":\"k1\",\"name\":\"n\",\"payload\":\"q\"}"))).isFalse();
        assertThat(check.matches(utf8("not json"))).isFalse();
        assertThat(check.failure(NO_HEADERS, new byte[0])).contains("k1");
    }

    @Test
    void fixedEndpointsChecks() {
        assertThat(Requests.plaintext().failure(200, NO_HEADERS, utf8("Hello, World!"))).isNull();
        assertThat(Requests.plaintext().failure(200, NO_HEADERS, utf8("Hello"))).isNotNull();
        assertThat(Requests.json().failure(200, NO_HEADERS, utf8("{\"message\":\"Hello, World!\"}"))).isNull();
        assertThat(Requests.json().failure(200, NO_HEADERS, utf8("{\"message\":\"Bye\"}"))).isNotNull();
        assertThat(Requests.delay(150).path()).isEqualTo("/testbed/delay?ms=150");
        assertThat(Requests.delay(150).failure(200, NO_HEADERS, utf8("Hello World!"))).isNull();
        assertThat(Requests.health().failure(200, NO_HEADERS, utf8("{\"status\":\"UP\",\"variant\":\"x\"}"))).isNull();
    }

    @Test
    void statusComesFirstThenHeaders() {
        RequestSpec read = Requests.read("read", new Item("k", "n", ""));
        byte[] body = ItemCodec.encode(new Item("k", "n", ""));
        assertThat(read.failure(503, NO_HEADERS, body)).isEqualTo("status 503, expected 200");
        assertThat(read.failure(200, NO_HEADERS, body)).isEqualTo("no ETag header");
        assertThat(read.failure(200, Map.of("ETag", "\"1\"")::get, body)).isNull();
    }
}
