package org.testbed.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A store whose connection reads back its own requests (a socket connected to itself, played by
 * {@link EchoingPeer}) answers nothing from them: every operation fails as unavailable, none
 * succeeds. Without the check, spymemcached reads each request as its own successful reply: the
 * health check says up, an add says stored, and nothing is stored anywhere.
 */
class OwnRequestReadBackTest {
    private static final long TIMEOUT_MS = 2000;
    private static final byte[] VALUE = "{\"name\":\"n\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void everyOperationFailsAndNoneSucceeds() throws Exception {
        try (EchoingPeer peer = new EchoingPeer();
             MemcachedItemStore store = MemcachedItemStore.connect(peer.address(), TIMEOUT_MS)) {
            assertThat(store.awaitConnected(Duration.ofSeconds(5))).as("connected to the peer").isTrue();
            List<CompletableFuture<?>> operations = List.of(store.getAsync("echo-read"),
                    store.addAsync("echo-add", VALUE), store.replaceAsync("echo-replace", VALUE), store.pingAsync());
            for (CompletableFuture<?> operation : operations) {
                assertThatThrownBy(() -> operation.get(2 * TIMEOUT_MS, TimeUnit.MILLISECONDS))
                        .as("an operation whose request came back as its reply")
                        .hasCauseInstanceOf(StoreUnavailableException.class);
            }
            assertThat(store.awaitConnected(Duration.ofSeconds(5))).as("reconnected to the peer").isTrue();
            assertThatThrownBy(() -> store.add("echo-sync", VALUE)).isInstanceOf(StoreUnavailableException.class);
            assertThat(store.mismatchedReplies()).as("frames refused as replies").isPositive();
        }
    }

    @Test
    void withoutTheCheckEveryOperationSucceeds() throws Exception {
        try (EchoingPeer peer = new EchoingPeer();
             MemcachedItemStore store = MemcachedItemStore.connectWithoutReplyCheck(peer.address(), TIMEOUT_MS)) {
            assertThat(store.awaitConnected(Duration.ofSeconds(5))).isTrue();
            assertThat(store.add("echo-add", VALUE).isStored()).as("an add nobody stored").isTrue();
            store.pingAsync().get(2 * TIMEOUT_MS, TimeUnit.MILLISECONDS); // "up"
        }
    }
}
