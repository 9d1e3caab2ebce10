package org.testbed.scenario;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;

/**
 * What a response must show besides its status. Each check can verify itself against a plain
 * response ({@link #failure}); a driver with native checks (Gatling) may map them instead, as long
 * as it accepts and rejects the same responses.
 */
public sealed interface Check {

    /**
     * Returns null when the response passes, otherwise a short reason.
     *
     * @param header the response header of that name, or null when absent
     * @param body the response body, never null
     */
    String failure(Function<String, String> header, byte[] body);

    /** The body is exactly these bytes (plaintext). */
    record BodyEquals(byte[] expected) implements Check {
        public BodyEquals {
            expected = expected.clone();
        }

        @Override
        public byte[] expected() {
            return expected.clone();
        }

        public boolean matches(byte[] body) {
            return Arrays.equals(expected, body);
        }

        @Override
        public String failure(Function<String, String> header, byte[] body) {
            return matches(body) ? null : "body is not " + new String(expected, StandardCharsets.UTF_8);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BodyEquals other && Arrays.equals(expected, other.expected);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(expected);
        }

        @Override
        public String toString() {
            return "BodyEquals[" + new String(expected, StandardCharsets.UTF_8) + "]";
        }
    }

    /**
     * The body is this item: {@code {"id","name","payload"}} with these values. This is the
     * read-your-writes check. The fast path compares bytes with what {@link ItemCodec} writes (what
     * every variant stores and returns); a different but equivalent JSON layout also passes.
     */
    record ItemIs(Item item, byte[] encoded) implements Check {
        public ItemIs(Item item) {
            this(item, ItemCodec.encode(item));
        }

        public ItemIs {
            Objects.requireNonNull(item, "item");
        }

        public boolean matches(byte[] body) {
            if (Arrays.equals(encoded, body)) {
                return true;
            }
            try {
                return item.equals(ItemCodec.decodeStored(body));
            } catch (RuntimeException notAnItem) {
                return false;
            }
        }

        @Override
        public String failure(Function<String, String> header, byte[] body) {
            return matches(body) ? null : "body is not the item " + item.id() + " as last written";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ItemIs other && item.equals(other.item);
        }

        @Override
        public int hashCode() {
            return item.hashCode();
        }

        @Override
        public String toString() {
            return "ItemIs[" + item.id() + "]";
        }
    }

    /** The body is a JSON object whose member {@code field} is the string {@code value} (json test). */
    record JsonStringField(String field, String value) implements Check {
        private static final JsonFactory JSON = new JsonFactory();

        public boolean matches(byte[] body) {
            try (JsonParser parser = JSON.createParser(body)) {
                if (parser.nextToken() != JsonToken.START_OBJECT) {
                    return false;
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    JsonToken token = parser.nextToken();
                    if (name.equals(field)) {
                        return token == JsonToken.VALUE_STRING && value.equals(parser.getText());
                    }
                    parser.skipChildren();
                }
                return false;
            } catch (IOException e) {
                return false;
            }
        }

        @Override
        public String failure(Function<String, String> header, byte[] body) {
            return matches(body) ? null : "body has no \"" + field + "\": \"" + value + "\"";
        }
    }

    /** The response carries this header (e.g. {@code ETag}). */
    record HeaderPresent(String name) implements Check {
        @Override
        public String failure(Function<String, String> header, byte[] body) {
            String value = header.apply(name);
            return value != null && !value.isEmpty() ? null : "no " + name + " header";
        }
    }
}
