package org.testbed.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ItemCodecTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void decodesNameAndPayloadAndEncodesAllThreeFields() {
        Item item = ItemCodec.decode("k1", utf8("{\"payload\":\"p\\n\\u00e9\",\"name\":\"n\"}"));
        assertThat(item).isEqualTo(new Item("k1", "n", "p\né"));
        assertThat(new String(ItemCodec.encode(item), StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":\"k1\",\"name\":\"n\",\"payload\":\"p\\né\"}");
        assertThat(ItemCodec.decodeStored(ItemCodec.encode(item))).isEqualTo(item);
    }

    @Test
    void anAbsentOrNullPayloadBecomesEmptyAndAMatchingIdIsAllowed() {
        assertThat(ItemCodec.decode("a", utf8("{\"name\":\"n\"}")).payload()).isEmpty();
        assertThat(ItemCodec.decode("a", utf8("{\"name\":\"n\",\"payload\":null}")).payload()).isEmpty();
        assertThat(ItemCodec.decode("a", utf8("{\"id\":\"a\",\"name\":\"n\"}")).name()).isEqualTo("n");
    }

    @Test
    void nameLengthIsCountedInCodePoints() {
        String emoji = "😀".repeat(ItemCodec.MAX_NAME_LENGTH);
        assertThat(ItemCodec.decode("a", utf8("{\"name\":\"" + emoji + "\"}")).name()).isEqualTo(emoji);
        assertThatThrownBy(() -> ItemCodec.decode("a", utf8("{\"name\":\"" + emoji + "x\"}")))
                .isInstanceOf(InvalidItemException.class).hasMessageContaining("201");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "null", "[]", "\"s\"", "{}", "{\"name\":\"\"}", "{\"name\":1}", "{\"name\":false}",
            "{\"name\":null}", "{\"name\":[]}", "{\"name\":{}}", "{\"name\":\"a\",\"payload\":1}",
            "{\"name\":\"a\",\"payload\":[]}", "{\"name\":\"a\",\"x\":1}", "{\"name\":\"a\",\"name\":\"a\"}",
            "{\"name\":\"a\"}x", "{\"name\":\"a\"} {}", "{\"name\":\"a\"", "{\"name\":\"a\",\"id\":\"b\"}",
            "{'name':'a'}", "{\"name\":\"a\u0000\"}"})
    void rejectsEverythingButOneObjectOfStrings(String body) {
        assertThatThrownBy(() -> ItemCodec.decode("a", utf8(body))).isInstanceOf(InvalidItemException.class)
                .message().isNotBlank().doesNotContain("Exception");
    }

    @Test
    void rejectsInvalidUtf8() {
        byte[] body = {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xff, '"', '}'};
        assertThatThrownBy(() -> ItemCodec.decode("a", body)).isInstanceOf(InvalidItemException.class);
    }

    /** Ill-formed UTF-8 that Jackson's parser would decode instead of refusing. */
    @ParameterizedTest
    @ValueSource(strings = {"C0 80", "C1 BF", "E0 80 80", "E0 9F BF", "ED A0 80", "ED BF BF", "F0 80 80 80",
            "F0 8F BF BF", "F4 90 80 80", "F5 80 80 80", "F8 88 80 80 80", "FE", "80", "C3 28", "E2 82", "F0 9F 98"})
    void rejectsIllFormedUtf8(String hex) {
        byte[] bad = java.util.HexFormat.ofDelimiter(" ").parseHex(hex.toLowerCase(java.util.Locale.ROOT));
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        body.writeBytes(utf8("{\"name\":\"a"));
        body.writeBytes(bad);
        body.writeBytes(utf8("\"}"));
        assertThatThrownBy(() -> ItemCodec.decode("a", body.toByteArray())).isInstanceOf(InvalidItemException.class)
                .hasMessageContaining("UTF-8");
    }

    @Test
    void acceptsWellFormedUtf8AtEveryLength() {
        String name = "a\u00e9\u07ff\u0800\ud7ff\ue000\uffff\ud800\udc00\udbff\udfff";
        assertThat(ItemCodec.decode("a", utf8("{\"name\":\"" + name + "\"}")).name()).isEqualTo(name);
        assertThat(ItemCodec.firstInvalidUtf8(utf8(name))).isEqualTo(-1);
    }

    /** Found by fuzzing: bytes without an id or a name were a NullPointerException, not "not an item". */
    @ParameterizedTest
    @ValueSource(strings = {"{}", "{}}}", "{\"name\":\"n\"}", "{\"id\":\"k\"}", "{\"id\":{\"name\":\"n\"},\"name\":\"n\"}",
            "{\"id\":[],\"name\":\"n\"}"})
    void storedBytesWithoutAnIdOrANameAreNotAnItem(String json) {
        assertThatThrownBy(() -> ItemCodec.decodeStored(utf8(json))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stored item");
    }

    @Test
    void storedBytesSkipNestedValuesOfAnyMember() {
        assertThat(ItemCodec.decodeStored(utf8("{\"x\":{\"id\":\"no\"},\"id\":\"k\",\"name\":\"n\",\"payload\":[\"no\"]}")))
                .isEqualTo(new Item("k", "n", ""));
    }

    /**
     * Found by fuzzing: zero bytes among the first four made Jackson read the body as UTF-32 or UTF-16, and fail
     * with an I/O error (a 500) instead of refusing it, or decode other text than the bytes say.
     */
    @ParameterizedTest
    @ValueSource(strings = {"7a 00 00 00 61 6d 65 22", "7b 00 22 00 6e 00 61 00 6d 00 65 00 22 00 3a 00 22 00 61 00 22 00 7d 00",
            "00 7b 00 22", "7b 22 6e 61 6d 65 22 3a 22 61 22 7d 00"})
    void rejectsNulBytesAsNotJson(String hex) {
        String[] parts = hex.split(" ");
        byte[] body = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            body[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        assertThatThrownBy(() -> ItemCodec.decode("a", body)).isInstanceOf(InvalidItemException.class)
                .hasMessageContaining("NUL byte");
    }
}
