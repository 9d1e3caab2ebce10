package org.testbed.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.testbed.http.ETags;
import org.testbed.http.MediaTypes;
import org.testbed.http.Response;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;
import org.testbed.store.ItemStore;
import org.testbed.store.Versioned;
import org.testbed.store.WriteResult;

/**
 * Coverage-guided fuzz test (Jazzer) of the request-body path every variant shares: {@link ItemService}'s
 * PUT and POST, sync and async, over a store in memory. JUnit replays the inputs under
 * {@code src/test/resources/org/testbed/service/ItemServiceFuzzTestInputs/<method>/}; {@code ./testbed fuzz}
 * fuzzes it.
 *
 * <p>An input is one request: its first byte chooses the method ({@code 0x03}: PUT, POST, async PUT,
 * async POST), the {@code Content-Type} ({@code 0x0c}: JSON, JSON with a UTF-8 charset, text/plain,
 * none), the {@code If-Match} of a POST ({@code 0x30}: none, {@code *}, the stored item's ETag, a stale
 * one) and whether the item exists before ({@code 0x40}) and the tags are weak ({@code 0x80}); the rest
 * is the body. An empty input is an empty PUT body.
 *
 * <p>The contract held, for any request: the service answers, never throws, never answers 500 (an
 * unexpected exception it caught), and answers with one of the contract's statuses; a 2xx answer's body
 * is the item the request body decodes to, as stored, with the ETag of its new CAS; a 4xx answer is a
 * problem body; and the sync and async paths give the same answer. Bodies are at most libFuzzer's
 * length limit (4 KiB by default) against a body limit of 1 KiB, so 413 is reached; one that takes
 * longer than the class's timeout is a hang.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ItemServiceFuzzTest {
    private static final String ID = "k1";
    private static final int MAX_BODY = 1024;
    private static final String[] CONTENT_TYPES = {MediaTypes.JSON, "application/json; charset=UTF-8", "text/plain", null};
    private static final Set<Integer> STATUSES = Set.of(200, 201, 400, 404, 409, 412, 413, 415);
    private static final byte[] EXISTING = ItemCodec.encode(new Item(ID, "before", "p"));

    @FuzzTest
    void putOrPostBody(byte[] input) {
        int control = input.length == 0 ? 0 : input[0] & 0xff;
        byte[] body = input.length == 0 ? input : Arrays.copyOfRange(input, 1, input.length);
        int method = control & 0x03;
        String contentType = CONTENT_TYPES[(control >> 2) & 0x03];
        boolean exists = (control & 0x40) != 0;
        ETags tags = (control & 0x80) != 0 ? ETags.WEAK : ETags.STRONG;

        MemoryStore syncStore = new MemoryStore(exists);
        MemoryStore asyncStore = new MemoryStore(exists);
        String ifMatch = switch ((control >> 4) & 0x03) {
            case 0 -> null;
            case 1 -> "*";
            case 2 -> tags.of(syncStore.casOf(ID));
            default -> tags.of(syncStore.casOf(ID) + 1000);
        };
        ItemService sync = new ItemService(syncStore, "fuzz", MAX_BODY, Metrics.off(), tags);
        ItemService async = new ItemService(asyncStore, "fuzz", MAX_BODY, Metrics.off(), tags);
        boolean put = method % 2 == 0;
        Response answer = put ? sync.create(ID, contentType, body) : sync.update(ID, contentType, body, ifMatch);
        CompletableFuture<Response> later = put ? async.createAsync(ID, contentType, body)
                : async.updateAsync(ID, contentType, body, ifMatch);
        Response asyncAnswer = later.join();

        assertThat(answer.status()).as("status of %s", describe(answer)).isIn(STATUSES);
        assertThat(asyncAnswer.status()).as("the async path's answer").isEqualTo(answer.status());
        assertThat(asyncAnswer.body()).isEqualTo(answer.body());
        if (answer.status() / 100 == 2) {
            Item item = ItemCodec.decode(ID, body);
            assertThat(ItemCodec.decodeStored(answer.body())).isEqualTo(item);
            assertThat(syncStore.valueOf(ID)).isEqualTo(answer.body());
            assertThat(tags.casOf(answer.etag())).isEqualTo(syncStore.casOf(ID));
        } else {
            assertThat(answer.contentType()).isEqualTo(MediaTypes.PROBLEM_JSON);
            assertThat(syncStore.valueOf(ID)).isEqualTo(exists ? EXISTING : null);
        }
    }

    private static String describe(Response r) {
        return r.status() + " " + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Items by id with Memcached's add, replace and cas; every write a new CAS. */
    private static final class MemoryStore implements ItemStore {
        private final Map<String, Versioned> items = new HashMap<>();
        private long nextCas = 41;

        MemoryStore(boolean withItem) {
            if (withItem) {
                items.put(ID, new Versioned(EXISTING, nextCas++));
            }
        }

        long casOf(String id) {
            Versioned v = items.get(id);
            return v == null ? 7 : v.cas();
        }

        byte[] valueOf(String id) {
            Versioned v = items.get(id);
            return v == null ? null : v.value();
        }

        private WriteResult put(String id, byte[] value) {
            long cas = nextCas++;
            items.put(id, new Versioned(value, cas));
            return WriteResult.stored(cas);
        }

        @Override
        public Versioned get(String id) {
            return items.get(id);
        }

        @Override
        public WriteResult add(String id, byte[] value) {
            return items.containsKey(id) ? new WriteResult(WriteResult.Outcome.EXISTS, 0) : put(id, value);
        }

        @Override
        public WriteResult replace(String id, byte[] value) {
            return items.containsKey(id) ? put(id, value) : new WriteResult(WriteResult.Outcome.NOT_FOUND, 0);
        }

        @Override
        public WriteResult cas(String id, long expectedCas, byte[] value) {
            Versioned v = items.get(id);
            if (v == null) {
                return new WriteResult(WriteResult.Outcome.NOT_FOUND, 0);
            }
            return v.cas() == expectedCas ? put(id, value) : new WriteResult(WriteResult.Outcome.CAS_MISMATCH, 0);
        }

        @Override
        public boolean delete(String id) {
            return items.remove(id) != null;
        }

        @Override
        public void ping() {
        }

        @Override
        public CompletableFuture<Versioned> getAsync(String id) {
            return CompletableFuture.completedFuture(get(id));
        }

        @Override
        public CompletableFuture<WriteResult> addAsync(String id, byte[] value) {
            return CompletableFuture.completedFuture(add(id, value));
        }

        @Override
        public CompletableFuture<WriteResult> replaceAsync(String id, byte[] value) {
            return CompletableFuture.completedFuture(replace(id, value));
        }

        @Override
        public CompletableFuture<WriteResult> casAsync(String id, long expectedCas, byte[] value) {
            return CompletableFuture.completedFuture(cas(id, expectedCas, value));
        }

        @Override
        public CompletableFuture<Boolean> deleteAsync(String id) {
            return CompletableFuture.completedFuture(delete(id));
        }

        @Override
        public CompletableFuture<Void> pingAsync() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
        }
    }
}
