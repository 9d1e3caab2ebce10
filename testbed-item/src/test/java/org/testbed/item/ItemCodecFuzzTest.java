package org.testbed.item;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzz tests (Jazzer) of what the item module reads from outside: request bodies,
 * stored bytes and ids from the path. In the normal build JUnit replays the inputs kept under
 * {@code src/test/resources/org/testbed/item/ItemCodecFuzzTestInputs/<method>/} (seeds, and every
 * crash fuzzing found) plus an empty one; {@code ./testbed fuzz} fuzzes each method.
 *
 * <p>The contracts held, for any input (anything else fails the test: a NullPointerException, an
 * index out of bounds, a stack overflow, an out-of-memory error):
 * <ul>
 *   <li>{@link ItemCodec#decode}: an {@link Item} or an {@link InvalidItemException} with a message for
 *       the client; a decoded item encodes to bytes that both decoders read back as the same item.</li>
 *   <li>{@link ItemCodec#decodeStored}: an {@link Item} with an id and a name, or an
 *       {@link IllegalArgumentException}.</li>
 *   <li>{@link ItemId#problemWith}: never throws; null exactly for 1..200 characters of {@code [A-Za-z0-9._~-]}.</li>
 * </ul>
 * An input is at most libFuzzer's length limit (4 KiB by default); one that takes longer than the
 * class's timeout is a hang, in regression mode (JUnit's timeout) and when fuzzing (libFuzzer's).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ItemCodecFuzzTest {
    /** The path id the bodies are decoded for; a seed's {@code "id"} member names it. */
    static final String PATH_ID = "k1";
    private static final Pattern VALID_ID = Pattern.compile("[A-Za-z0-9._~-]{1,200}");

    @FuzzTest
    void decodeRequestBody(byte[] body) {
        Item item;
        try {
            item = ItemCodec.decode(PATH_ID, body);
        } catch (InvalidItemException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        assertThat(item.id()).isEqualTo(PATH_ID);
        assertThat(item.name().codePointCount(0, item.name().length())).isBetween(1, ItemCodec.MAX_NAME_LENGTH);
        byte[] stored = ItemCodec.encode(item);
        assertThat(ItemCodec.decodeStored(stored)).isEqualTo(item);
        assertThat(ItemCodec.decode(PATH_ID, stored)).isEqualTo(item);
    }

    @FuzzTest
    void decodeStoredBytes(byte[] json) {
        Item item;
        try {
            item = ItemCodec.decodeStored(json);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        assertThat(item.id()).isNotNull();
        assertThat(item.name()).isNotNull();
        assertThat(item.payload()).isNotNull();
    }

    /** The id as a server takes it from the raw path: the bytes read as UTF-8 (ill-formed ones replaced). */
    @FuzzTest
    void itemIdFromPath(byte[] raw) {
        String id = new String(raw, StandardCharsets.UTF_8);
        String problem = ItemId.problemWith(id);
        assertThat(problem == null).as("'%s' is valid: %s", id, problem).isEqualTo(VALID_ID.matcher(id).matches());
        assertThat(ItemId.isValid(id)).isEqualTo(problem == null);
    }
}
