package org.testbed.item;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads request bodies into {@link Item}s and writes items as the JSON bytes that are both stored
 * in Memcached and sent to clients (a GET returns the stored bytes as they are).
 *
 * <p>Decoding is strict, on purpose: the body must be one JSON object whose members are
 * {@code name} (a string of 1..200 characters, required), {@code payload} (a string or null,
 * optional) and optionally {@code id} (equal to the id in the path). Anything else — unknown or
 * duplicate members, numbers where strings belong, nested values, trailing content, invalid UTF-8 —
 * is rejected with a message, so every variant stores exactly the same thing or nothing. A
 * streaming parser never descends into nested values, so deep nesting costs nothing.
 */
public final class ItemCodec {
    public static final int MAX_NAME_LENGTH = 200;

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(8).build())
            .build();

    /**
     * For bytes this codec wrote itself: no duplicate detection, which would allocate a set per
     * document (JMH showed decodeStored allocating more than the strict decode).
     */
    private static final JsonFactory TRUSTED_JSON = new JsonFactory();

    private ItemCodec() {
    }

    /** Decodes a request body for the item {@code pathId}; throws {@link InvalidItemException}. */
    public static Item decode(String pathId, byte[] body) {
        if (body.length == 0) {
            throw new InvalidItemException("The request body is empty; expected a JSON object with a \"name\".");
        }
        int invalidAt = firstInvalidUtf8(body);
        if (invalidAt >= 0) {
            throw new InvalidItemException("The request body is not valid UTF-8 (at byte " + invalidAt + ").");
        }
        int nulAt = indexOfNul(body);
        if (nulAt >= 0) {
            // Never JSON (a control character must be escaped), and Jackson would take zero bytes among the
            // first four as UTF-16 or UTF-32 and fail on them as on an I/O error, or decode another text.
            throw new InvalidItemException("The request body is not valid JSON: a NUL byte at byte " + nulAt + ".");
        }
        String name = null;
        String payload = null;
        boolean sawName = false;
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new InvalidItemException("The request body must be a JSON object.");
            }
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "name" -> {
                        sawName = true;
                        name = requireString(field, value, parser, false);
                    }
                    case "payload" -> {
                        payload = requireString(field, value, parser, true);
                    }
                    case "id" -> {
                        String bodyId = requireString(field, value, parser, false);
                        if (!bodyId.equals(pathId)) {
                            throw new InvalidItemException("The body's \"id\" does not match the id in the path.");
                        }
                    }
                    default -> throw new InvalidItemException("Unknown member \"" + abbreviate(field)
                            + "\"; an item has only \"name\" and \"payload\".");
                }
            }
            if (token != JsonToken.END_OBJECT) {
                throw new InvalidItemException("The request body is not a complete JSON object.");
            }
            if (parser.nextToken() != null) {
                throw new InvalidItemException("Unexpected content after the JSON object.");
            }
        } catch (JsonProcessingException e) {
            throw new InvalidItemException("The request body is not valid JSON: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!sawName) {
            throw new InvalidItemException("The member \"name\" is required.");
        }
        int length = name.codePointCount(0, name.length());
        if (length < 1 || length > MAX_NAME_LENGTH) {
            throw new InvalidItemException("\"name\" must be 1 to " + MAX_NAME_LENGTH
                    + " characters long (it has " + length + ").");
        }
        return new Item(pathId, name, payload);
    }

    /**
     * The index of the first byte that is not part of well-formed UTF-8 (RFC 3629), or -1. Jackson's
     * parser decodes some ill-formed sequences instead of refusing them: overlong forms
     * ({@code C0 80} became U+0000), encoded surrogates ({@code ED A0 80}) and sequences beyond
     * U+10FFFF ({@code F4 90 80 80} became two lone surrogates), which would then be stored and
     * served as garbage. Checked here first, so every variant refuses them alike; ASCII costs one
     * comparison per byte.
     */
    static int firstInvalidUtf8(byte[] bytes) {
        int i = 0;
        while (i < bytes.length) {
            int b = bytes[i] & 0xff;
            if (b < 0x80) {
                i++;
                continue;
            }
            int length;
            int min;
            int max = 0xbf;
            if (b >= 0xc2 && b <= 0xdf) {
                length = 2;
                min = 0x80;
            } else if (b >= 0xe0 && b <= 0xef) {
                length = 3;
                min = b == 0xe0 ? 0xa0 : 0x80; // E0 80..9F would be overlong
                max = b == 0xed ? 0x9f : 0xbf; // ED A0..BF would be a surrogate
            } else if (b >= 0xf0 && b <= 0xf4) {
                length = 4;
                min = b == 0xf0 ? 0x90 : 0x80; // F0 80..8F would be overlong
                max = b == 0xf4 ? 0x8f : 0xbf; // F4 90.. would be beyond U+10FFFF
            } else {
                return i; // a continuation byte without a lead, C0, C1 or F5..FF
            }
            if (i + length > bytes.length) {
                return i;
            }
            int second = bytes[i + 1] & 0xff;
            if (second < min || second > max) {
                return i;
            }
            for (int k = 2; k < length; k++) {
                int next = bytes[i + k] & 0xff;
                if (next < 0x80 || next > 0xbf) {
                    return i;
                }
            }
            i += length;
        }
        return -1;
    }

    private static int indexOfNul(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Encodes an item as {@code {"id":..,"name":..,"payload":..}} in UTF-8. */
    public static byte[] encode(Item item) {
        ByteArrayBuilder out = new ByteArrayBuilder(64 + item.id().length() + item.name().length()
                + item.payload().length());
        try (JsonGenerator generator = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            generator.writeStartObject();
            generator.writeStringField("id", item.id());
            generator.writeStringField("name", item.name());
            generator.writeStringField("payload", item.payload());
            generator.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Decodes stored or received item JSON (as written by {@link #encode}) without the request's
     * validation. Anything that is not a JSON object with a string {@code id} and {@code name} is an
     * {@link IllegalArgumentException} (a client reading a wrong answer says so instead of failing on it).
     */
    public static Item decodeStored(byte[] json) {
        String id = null;
        String name = null;
        String payload = null;
        try (JsonParser parser = TRUSTED_JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("stored item is not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    parser.skipChildren(); // not an item's member, whatever its name
                    continue;
                }
                switch (field) {
                    case "id" -> id = parser.getValueAsString();
                    case "name" -> name = parser.getValueAsString();
                    case "payload" -> payload = parser.getValueAsString();
                    default -> {
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("stored item is not valid JSON", e);
        }
        if (id == null || name == null) {
            throw new IllegalArgumentException("stored item has no string \"" + (id == null ? "id" : "name") + "\"");
        }
        return new Item(id, name, payload);
    }

    private static String requireString(String field, JsonToken value, JsonParser parser, boolean nullable)
            throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return parser.getText();
        }
        if (nullable && value == JsonToken.VALUE_NULL) {
            return null;
        }
        throw new InvalidItemException("\"" + field + "\" must be a string" + (nullable ? " or null" : "")
                + ", not " + describe(value) + ".");
    }

    private static String describe(JsonToken token) {
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.asString() == null ? token.name() : token.asString();
        };
    }

    private static String abbreviate(String s) {
        String shown = s.length() > 40 ? s.substring(0, 40) + "…" : s;
        StringBuilder safe = new StringBuilder(shown.length());
        shown.codePoints().forEach(cp -> {
            if (Character.isISOControl(cp)) {
                safe.append(String.format("\\u%04x", cp));
            } else {
                safe.appendCodePoint(cp);
            }
        });
        return safe.toString();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed input.";
        }
        int newline = message.indexOf('\n');
        return abbreviate(newline < 0 ? message : message.substring(0, newline));
    }
}
