package org.testbed.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;

/** The store against a real memcached: semantics of every operation, then its failure modes. */
@ExtendWith(MemcachedExtension.class)
class MemcachedItemStoreTest {
    private static final long TIMEOUT_MS = 500;
    private static final AtomicInteger IDS = new AtomicInteger();

    private final MemcachedProcess memcached;
    private MemcachedItemStore store;

    MemcachedItemStoreTest(MemcachedProcess memcached) {
        this.memcached = memcached;
    }

    @BeforeEach
    void connect() {
        if (!memcached.isAlive()) {
            memcached.restart();
        }
        store = MemcachedItemStore.connect(memcached.address(), TIMEOUT_MS);
        awaitUp(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static String newId() {
        return "store-test-" + IDS.incrementAndGet() + "-" + System.nanoTime();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void addThenGetReturnsTheBytesAndTheCasOfTheWrite() {
        String id = newId();
        WriteResult added = store.add(id, bytes("one"));
        assertThat(added.isStored()).isTrue();
        assertThat(added.cas()).isNotZero();

        Versioned read = store.get(id);
        assertThat(read.value()).isEqualTo(bytes("one"));
        assertThat(read.cas()).isEqualTo(added.cas());
    }

    @Test
    void addOfAnExistingKeyIsRefusedAndKeepsTheValue() {
        String id = newId();
        store.add(id, bytes("first"));
        assertThat(store.add(id, bytes("second")).outcome()).isEqualTo(WriteResult.Outcome.EXISTS);
        assertThat(store.get(id).value()).isEqualTo(bytes("first"));
    }

    @Test
    void replaceNeedsAnExistingKeyAndChangesTheCas() {
        String id = newId();
        assertThat(store.replace(id, bytes("x")).outcome()).isEqualTo(WriteResult.Outcome.NOT_FOUND);
        assertThat(store.get(id)).isNull();

        long first = store.add(id, bytes("a")).cas();
        WriteResult replaced = store.replace(id, bytes("b"));
        assertThat(replaced.isStored()).isTrue();
        assertThat(replaced.cas()).isNotEqualTo(first);
        assertThat(store.get(id)).extracting(Versioned::cas).isEqualTo(replaced.cas());
    }

    @Test
    void casSucceedsOnlyWithTheCurrentCas() {
        String id = newId();
        long first = store.add(id, bytes("a")).cas();
        WriteResult second = store.cas(id, first, bytes("b"));
        assertThat(second.isStored()).isTrue();

        assertThat(store.cas(id, first, bytes("stale")).outcome()).isEqualTo(WriteResult.Outcome.CAS_MISMATCH);
        assertThat(store.get(id).value()).isEqualTo(bytes("b"));
        assertThat(store.cas(newId(), first, bytes("c")).outcome()).isEqualTo(WriteResult.Outcome.NOT_FOUND);
    }

    @Test
    void deleteReportsWhetherTheKeyExisted() {
        String id = newId();
        store.add(id, bytes("a"));
        assertThat(store.delete(id)).isTrue();
        assertThat(store.delete(id)).isFalse();
        assertThat(store.get(id)).isNull();
    }

    @Test
    void asyncOperationsHaveTheSameSemantics() {
        String id = newId();
        WriteResult added = store.addAsync(id, bytes("a")).join();
        assertThat(added.isStored()).isTrue();
        assertThat(store.addAsync(id, bytes("b")).join().outcome()).isEqualTo(WriteResult.Outcome.EXISTS);
        assertThat(store.getAsync(id).join().cas()).isEqualTo(added.cas());
        WriteResult swapped = store.casAsync(id, added.cas(), bytes("c")).join();
        assertThat(swapped.isStored()).isTrue();
        assertThat(store.casAsync(id, added.cas(), bytes("d")).join().outcome()).isEqualTo(WriteResult.Outcome.CAS_MISMATCH);
        assertThat(store.replaceAsync(id, bytes("e")).join().isStored()).isTrue();
        assertThat(store.getAsync(id).join().value()).isEqualTo(bytes("e"));
        assertThat(store.deleteAsync(id).join()).isTrue();
        assertThat(store.getAsync(id).join()).isNull();
        store.pingAsync().join();
    }

    @Test
    void aHungServerFailsEveryCallWithinTheTimeoutAndRecoversWhenResumed() {
        String id = newId();
        store.add(id, bytes("kept"));
        memcached.pause();
        try {
            long start = System.nanoTime();
            assertThatThrownBy(() -> store.get(id)).isInstanceOf(StoreUnavailableException.class);
            assertThat(elapsed(start)).isLessThan(Duration.ofMillis(TIMEOUT_MS + 1000));

            start = System.nanoTime();
            assertThatThrownBy(() -> store.getAsync(id).join())
                    .isInstanceOf(CompletionException.class).hasCauseInstanceOf(StoreUnavailableException.class);
            assertThat(elapsed(start)).isLessThan(Duration.ofMillis(TIMEOUT_MS + 1000));
            assertThatThrownBy(store::ping).isInstanceOf(StoreUnavailableException.class);
        } finally {
            memcached.resume();
        }
        awaitUp(store);
        assertThat(store.get(id).value()).isEqualTo(bytes("kept"));
    }

    @Test
    void aDeadServerFailsFastAndTheStoreReconnectsWhenItIsBack() {
        memcached.kill();
        long start = System.nanoTime();
        assertThatThrownBy(() -> store.add(newId(), bytes("x"))).isInstanceOf(StoreUnavailableException.class);
        assertThatThrownBy(() -> store.addAsync(newId(), bytes("x")).join())
                .hasCauseInstanceOf(StoreUnavailableException.class);
        assertThat(elapsed(start)).isLessThan(Duration.ofMillis(2 * TIMEOUT_MS + 1000));

        memcached.restart();
        awaitUp(store);
        String id = newId();
        assertThat(store.add(id, bytes("back")).isStored()).isTrue();
    }

    /**
     * Operations waiting on a server that then dies are cancelled by spymemcached, and a cancelled
     * operation completes too: a health check that did not look at how it completed said "up" for
     * a server that had just been killed.
     */
    @Test
    void aHealthCheckCutOffByTheServerDyingFails() {
        memcached.pause();
        List<CompletableFuture<Void>> pings = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            pings.add(store.pingAsync());
        }
        memcached.kill(); // the paused server never answered them; now their connection drops
        for (CompletableFuture<Void> ping : pings) {
            assertThatThrownBy(ping::join).hasCauseInstanceOf(StoreUnavailableException.class);
        }
        assertThatThrownBy(store::ping).isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void consistentHashingSpreadsKeysOverSeveralServers() {
        try (MemcachedProcess second = MemcachedProcess.start();
             MemcachedItemStore both = MemcachedItemStore.connect(memcached.address() + "," + second.address(), TIMEOUT_MS);
             MemcachedItemStore onlyFirst = MemcachedItemStore.connect(memcached.address(), TIMEOUT_MS);
             MemcachedItemStore onlySecond = MemcachedItemStore.connect(second.address(), TIMEOUT_MS)) {
            awaitUp(both);
            awaitUp(onlyFirst);
            awaitUp(onlySecond);
            int onFirst = 0;
            int onSecond = 0;
            for (int i = 0; i < 100; i++) {
                String id = newId();
                assertThat(both.add(id, bytes("v")).isStored()).isTrue();
                assertThat(both.get(id)).isNotNull();
                boolean first = onlyFirst.get(id) != null;
                boolean secondHas = onlySecond.get(id) != null;
                assertThat(first ^ secondHas).as("each key lives on exactly one server").isTrue();
                onFirst += first ? 1 : 0;
                onSecond += secondHas ? 1 : 0;
            }
            assertThat(onFirst).isPositive();
            assertThat(onSecond).isPositive();
        }
    }

    private static Duration elapsed(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /** Waits (bounded) until the store's connection is up, as a service would after a restart. */
    static void awaitUp(ItemStore store) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                store.ping();
                return;
            } catch (StoreUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("store did not come up within 10 s", e);
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(interrupted);
                }
            }
        }
    }
}
