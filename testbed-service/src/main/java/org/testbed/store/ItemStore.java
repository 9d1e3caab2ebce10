package org.testbed.store;

import java.util.concurrent.CompletableFuture;

/**
 * Items by id, with the Memcached semantics the contract is written in: create is {@code add},
 * update is {@code replace} or {@code cas}, delete is {@code delete}; no expiry.
 *
 * <p>Every method either answers within the configured timeout or fails with
 * {@link StoreUnavailableException} (for the async methods: completes exceptionally with it).
 * Sync methods block the calling thread; async methods never do, and complete on a store thread.
 */
public interface ItemStore extends AutoCloseable {

    /** The value and CAS of an item, or null when absent. */
    Versioned get(String id);

    WriteResult add(String id, byte[] value);

    WriteResult replace(String id, byte[] value);

    WriteResult cas(String id, long expectedCas, byte[] value);

    /** True if the item existed and is now gone. */
    boolean delete(String id);

    /** Fails with {@link StoreUnavailableException} unless every server answers. */
    void ping();

    CompletableFuture<Versioned> getAsync(String id);

    CompletableFuture<WriteResult> addAsync(String id, byte[] value);

    CompletableFuture<WriteResult> replaceAsync(String id, byte[] value);

    CompletableFuture<WriteResult> casAsync(String id, long expectedCas, byte[] value);

    CompletableFuture<Boolean> deleteAsync(String id);

    CompletableFuture<Void> pingAsync();

    @Override
    void close();
}
