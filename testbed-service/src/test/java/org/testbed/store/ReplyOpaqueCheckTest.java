package org.testbed.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;

/**
 * The store takes a reply only for the operation whose opaque it carries. A real memcached behind
 * {@link ReplyReplayingProxy}, which can put a second copy of a reply on the wire: with memcached
 * hung and operations in flight, that copy is the only reply the store can read.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
class ReplyOpaqueCheckTest {
    /** Long enough that a failure before it comes from the dropped connection, not a time-out. */
    private static final long TIMEOUT_MS = 3000;
    private static final byte[] A = bytes("value of a");
    private static final byte[] B = bytes("value of b");

    private final MemcachedProcess memcached;

    ReplyOpaqueCheckTest(MemcachedProcess memcached) {
        this.memcached = memcached;
    }

    @Test
    void aReplyForAnotherOperationFailsEveryOperationInFlightAndCompletesNone() throws Exception {
        try (ReplyReplayingProxy proxy = new ReplyReplayingProxy(memcached.address());
             MemcachedItemStore store = MemcachedItemStore.connect(proxy.address(), TIMEOUT_MS)) {
            MemcachedItemStoreTest.awaitUp(store);
            String a = "opaque-a-" + System.nanoTime();
            String b = "opaque-b-" + System.nanoTime();
            assertThat(store.add(a, A).isStored()).isTrue();
            assertThat(store.add(b, B).isStored()).isTrue();
            assertThat(store.get(a).value()).isEqualTo(A); // the reply the proxy will send again

            List<CompletableFuture<?>> inFlight = new ArrayList<>();
            memcached.pause();
            try {
                int sent = proxy.requests();
                inFlight.add(store.getAsync(b));
                inFlight.add(store.getAsync("opaque-absent-" + System.nanoTime()));
                // a write memcached, once resumed, refuses: b exists
                inFlight.add(store.addAsync(b, bytes("never")));
                inFlight.add(store.pingAsync());
                assertThat(proxy.awaitRequests(sent + inFlight.size(), TIMEOUT_MS / 2))
                        .as("the four operations sent, so in flight").isTrue();
                assertThat(proxy.replayLastReply()).isTrue();

                for (CompletableFuture<?> operation : inFlight) {
                    assertThatThrownBy(() -> operation.get(2 * TIMEOUT_MS, TimeUnit.MILLISECONDS))
                            .as("an operation in flight when a reply came for another one")
                            .hasCauseInstanceOf(StoreUnavailableException.class)
                            // the dropped connection, not a time-out: the operation was cancelled
                            .cause().hasMessageContaining("the connection is down");
                }
                assertThat(store.mismatchedReplies()).isEqualTo(1);
            } finally {
                memcached.resume();
            }
            MemcachedItemStoreTest.awaitUp(store);
            assertThat(store.get(b).value()).as("b after the reconnect, unchanged").isEqualTo(B);
            assertThat(store.get(a).value()).isEqualTo(A);
            assertThat(store.mismatchedReplies()).isEqualTo(1);
        }
    }

    /**
     * The same reply out of turn, read as spymemcached reads it without the check: the read of b
     * answers a's value. What the check above stands between.
     */
    @Test
    void withoutTheCheckTheSameReplyAnswersAnotherOperation() throws Exception {
        try (ReplyReplayingProxy proxy = new ReplyReplayingProxy(memcached.address());
             MemcachedItemStore store = MemcachedItemStore.connectWithoutReplyCheck(proxy.address(), TIMEOUT_MS)) {
            MemcachedItemStoreTest.awaitUp(store);
            String a = "unchecked-a-" + System.nanoTime();
            String b = "unchecked-b-" + System.nanoTime();
            assertThat(store.add(a, A).isStored()).isTrue();
            assertThat(store.add(b, B).isStored()).isTrue();
            assertThat(store.get(a).value()).isEqualTo(A);

            memcached.pause();
            try {
                int sent = proxy.requests();
                CompletableFuture<Versioned> readOfB = store.getAsync(b);
                assertThat(proxy.awaitRequests(sent + 1, TIMEOUT_MS / 2)).as("the read of b sent").isTrue();
                assertThat(proxy.replayLastReply()).isTrue();
                Versioned read;
                try {
                    read = readOfB.get(2 * TIMEOUT_MS, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.ExecutionException | CompletionException e) {
                    throw new AssertionError("expected the unchecked store to take the copy as b's reply", e);
                }
                assertThat(read.value()).as("b read without the check").isEqualTo(A);
            } finally {
                memcached.resume();
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
