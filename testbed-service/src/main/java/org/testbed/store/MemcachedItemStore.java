package org.testbed.store;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import net.spy.memcached.AddrUtil;
import net.spy.memcached.CASResponse;
import net.spy.memcached.CASValue;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.StatusCode;

/**
 * {@link ItemStore} over spymemcached, connected as {@link StoreConnectionFactory} says (binary
 * protocol, Ketama hashing, fast failure while a server is down, quick reconnects,
 * {@link ReconnectSafeConnection}'s fix to those reconnects, and every reply checked against the
 * operation that reads it), with a per-operation timeout
 * ({@code MEMCACHED_TIMEOUT_MS}) on the sync and on the async path: spymemcached itself only times
 * out callers of {@code Future.get}.
 */
public final class MemcachedItemStore implements ItemStore {
    static final String KEY_PREFIX = "item:";
    private static final String HEALTH_KEY = "testbed:health";
    private static final int NO_EXPIRY = 0;

    static {
        // Route spymemcached's own logging to SLF4J unless the user chose otherwise.
        if (System.getProperty("net.spy.log.LoggerImpl") == null) {
            System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SLF4JLogger");
        }
    }

    /** One timer thread for all async timeouts of all stores: it only ever fails futures. */
    private static final ScheduledThreadPoolExecutor TIMEOUTS = timeoutScheduler();

    private final MemcachedClient client;
    private final StoreConnectionFactory connectionFactory;
    private final ExecutorService callbacks;
    private final long timeoutMillis;

    private MemcachedItemStore(MemcachedClient client, StoreConnectionFactory connectionFactory,
                               ExecutorService callbacks, long timeoutMillis) {
        this.client = client;
        this.connectionFactory = connectionFactory;
        this.callbacks = callbacks;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Connects to {@code servers} ({@code host:port}, comma or space separated). Returns at once:
     * connections are made in the background and re-made whenever they drop, so a store created
     * while Memcached is down starts answering as soon as it is up.
     */
    public static MemcachedItemStore connect(String servers, long timeoutMillis) {
        return connect(servers, timeoutMillis, true);
    }

    /**
     * As {@link #connect}, but replies are not checked against the operation that reads them, as
     * spymemcached leaves them: for {@code StoreBenchmark}, to measure what the check costs. A
     * service never uses it.
     */
    public static MemcachedItemStore connectWithoutReplyCheck(String servers, long timeoutMillis) {
        return connect(servers, timeoutMillis, false);
    }

    private static MemcachedItemStore connect(String servers, long timeoutMillis, boolean checkReplies) {
        List<InetSocketAddress> addresses = AddrUtil.getAddresses(servers);
        ExecutorService callbacks = Executors.newFixedThreadPool(
                Math.max(2, Runtime.getRuntime().availableProcessors()), daemonThreads("memcached-callback"));
        StoreConnectionFactory factory = new StoreConnectionFactory(timeoutMillis, callbacks, checkReplies);
        try {
            return new MemcachedItemStore(new MemcachedClient(factory, addresses), factory, callbacks, timeoutMillis);
        } catch (IOException e) {
            callbacks.shutdown();
            throw new IllegalArgumentException("Cannot set up a Memcached client for " + servers + ": " + e.getMessage(), e);
        }
    }

    // ---- sync ----

    @Override
    public Versioned get(String id) {
        return await(() -> client.asyncGets(KEY_PREFIX + id, RawBytesTranscoder.INSTANCE), MemcachedItemStore::versioned);
    }

    @Override
    public WriteResult add(String id, byte[] value) {
        return await(() -> client.add(KEY_PREFIX + id, NO_EXPIRY, value, RawBytesTranscoder.INSTANCE),
                MemcachedItemStore::addResult);
    }

    @Override
    public WriteResult replace(String id, byte[] value) {
        return await(() -> client.replace(KEY_PREFIX + id, NO_EXPIRY, value, RawBytesTranscoder.INSTANCE),
                MemcachedItemStore::replaceResult);
    }

    @Override
    public WriteResult cas(String id, long expectedCas, byte[] value) {
        return await(() -> client.asyncCAS(KEY_PREFIX + id, expectedCas, NO_EXPIRY, value, RawBytesTranscoder.INSTANCE),
                MemcachedItemStore::casResult);
    }

    @Override
    public boolean delete(String id) {
        return await(() -> client.delete(KEY_PREFIX + id), MemcachedItemStore::deleteResult);
    }

    @Override
    public void ping() {
        requireAllServersConnected();
        await(() -> client.asyncGets(HEALTH_KEY, RawBytesTranscoder.INSTANCE), MemcachedItemStore::answered);
    }

    // ---- async ----

    @Override
    public CompletableFuture<Versioned> getAsync(String id) {
        return completable(() -> client.asyncGets(KEY_PREFIX + id, RawBytesTranscoder.INSTANCE), MemcachedItemStore::versioned);
    }

    @Override
    public CompletableFuture<WriteResult> addAsync(String id, byte[] value) {
        return completable(() -> client.add(KEY_PREFIX + id, NO_EXPIRY, value, RawBytesTranscoder.INSTANCE),
                MemcachedItemStore::addResult);
    }

    @Override
    public CompletableFuture<WriteResult> replaceAsync(String id, byte[] value) {
        return completable(() -> client.replace(KEY_PREFIX + id, NO_EXPIRY, value, RawBytesTranscoder.INSTANCE),
                MemcachedItemStore::replaceResult);
    }

    @Override
    public CompletableFuture<WriteResult> casAsync(String id, long expectedCas, byte[] value) {
        return completable(() -> client.asyncCAS(KEY_PREFIX + id, expectedCas, NO_EXPIRY, value, RawBytesTranscoder.INSTANCE),
                MemcachedItemStore::casResult);
    }

    @Override
    public CompletableFuture<Boolean> deleteAsync(String id) {
        return completable(() -> client.delete(KEY_PREFIX + id), MemcachedItemStore::deleteResult);
    }

    @Override
    public CompletableFuture<Void> pingAsync() {
        try {
            requireAllServersConnected();
        } catch (StoreUnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        return completable(() -> client.asyncGets(HEALTH_KEY, RawBytesTranscoder.INSTANCE), MemcachedItemStore::answered);
    }

    @Override
    public void close() {
        client.shutdown(timeoutMillis, TimeUnit.MILLISECONDS);
        callbacks.shutdown();
    }

    /** The per-server versions, for the run environment; servers that do not answer are absent. */
    public Map<java.net.SocketAddress, String> versions() {
        return client.getVersions();
    }

    // ---- results: one place that reads spymemcached's futures, for both paths ----

    private static Versioned versioned(OperationFuture<CASValue<byte[]>> done) throws ExecutionException, InterruptedException {
        CASValue<byte[]> value = done.get();
        return value == null ? null : new Versioned(value.getValue(), value.getCas());
    }

    /**
     * The health probe's result: any answer (the key is normally absent) means the server is
     * there. It must still look at the future: an operation cancelled because the connection
     * dropped completes too, and only {@code get()} tells it from an answer.
     */
    private static Void answered(OperationFuture<CASValue<byte[]>> done) throws ExecutionException, InterruptedException {
        done.get();
        return null;
    }

    private static WriteResult addResult(OperationFuture<Boolean> done) throws ExecutionException, InterruptedException {
        if (done.get()) {
            return WriteResult.stored(done.getCas());
        }
        return switch (done.getStatus().getStatusCode()) {
            case ERR_EXISTS, ERR_NOT_STORED -> WriteResult.EXISTS;
            default -> throw failure(done);
        };
    }

    private static WriteResult replaceResult(OperationFuture<Boolean> done) throws ExecutionException, InterruptedException {
        if (done.get()) {
            return WriteResult.stored(done.getCas());
        }
        return switch (done.getStatus().getStatusCode()) {
            case ERR_NOT_FOUND, ERR_NOT_STORED -> WriteResult.NOT_FOUND;
            default -> throw failure(done);
        };
    }

    private static WriteResult casResult(OperationFuture<CASResponse> done) throws ExecutionException, InterruptedException {
        CASResponse response = done.get();
        return switch (response) {
            case OK -> WriteResult.stored(done.getCas());
            case EXISTS -> WriteResult.CAS_MISMATCH;
            case NOT_FOUND -> WriteResult.NOT_FOUND;
            default -> throw failure(done);
        };
    }

    private static boolean deleteResult(OperationFuture<Boolean> done) throws ExecutionException, InterruptedException {
        if (done.get()) {
            return true;
        }
        if (done.getStatus().getStatusCode() == StatusCode.ERR_NOT_FOUND) {
            return false;
        }
        throw failure(done);
    }

    private static StoreUnavailableException failure(OperationFuture<?> done) {
        return new StoreUnavailableException("it answered " + done.getStatus().getStatusCode()
                + " (" + done.getStatus().getMessage() + ")", null);
    }

    /**
     * Replies read for an operation they did not answer (another operation's opaque), each of which
     * dropped its connection; each is also logged. Zero unless something sent or read out of turn.
     */
    public long mismatchedReplies() {
        return connectionFactory.mismatchedReplies();
    }

    /** Whether every server has a connection right now (for tests that watch a reconnect). */
    boolean isConnected() {
        return client.getUnavailableServers().isEmpty();
    }

    private void requireAllServersConnected() {
        if (!client.getUnavailableServers().isEmpty()) {
            throw new StoreUnavailableException("not connected to " + client.getUnavailableServers() + "; reconnecting", null);
        }
    }

    @FunctionalInterface
    private interface Result<F, R> {
        R read(F completed) throws ExecutionException, InterruptedException;
    }

    private <T, R> R await(Supplier<OperationFuture<T>> operation, Result<OperationFuture<T>, R> result) {
        OperationFuture<T> future = enqueue(operation);
        try {
            future.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return result.read(future);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw timedOut(e);
        } catch (InterruptedException e) {
            future.cancel(false);
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while waiting for an answer", e);
        } catch (ExecutionException | IllegalStateException e) {
            throw unavailable(e);
        }
    }

    private <T, R> CompletableFuture<R> completable(Supplier<OperationFuture<T>> operation,
                                                     Result<OperationFuture<T>, R> result) {
        OperationFuture<T> future;
        try {
            future = enqueue(operation);
        } catch (StoreUnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<R> completable = new CompletableFuture<>();
        ScheduledFuture<?> timer = TIMEOUTS.schedule(() -> {
            if (completable.completeExceptionally(timedOut(null))) {
                future.cancel(false);
            }
        }, timeoutMillis, TimeUnit.MILLISECONDS);
        future.addListener(done -> {
            timer.cancel(false);
            try {
                completable.complete(result.read(future));
            } catch (StoreUnavailableException e) {
                completable.completeExceptionally(e);
            } catch (ExecutionException | IllegalStateException | InterruptedException e) {
                completable.completeExceptionally(unavailable(e));
            }
        });
        return completable;
    }

    /** spymemcached throws IllegalStateException when a hung server's queue stays full. */
    private static <T> OperationFuture<T> enqueue(Supplier<OperationFuture<T>> operation) {
        try {
            return operation.get();
        } catch (IllegalStateException e) {
            throw unavailable(e);
        }
    }

    private StoreUnavailableException timedOut(Throwable cause) {
        return new StoreUnavailableException("no answer within " + timeoutMillis + " ms", cause);
    }

    /** A reason fit for a client (it ends up in the 503's detail); the cause keeps the rest. */
    private static StoreUnavailableException unavailable(Throwable e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        String reason;
        if (cause instanceof CancellationException) {
            // FailureMode.Cancel: the operation's server has no connection right now.
            reason = "the connection is down; reconnecting";
        } else if (cause instanceof IllegalStateException) {
            reason = "too many operations are queued for a server that does not answer";
        } else {
            reason = "the operation failed";
        }
        return new StoreUnavailableException(reason, cause);
    }

    /**
     * Waits up to {@code limit} for a connection to every server, so a service started beside a
     * running Memcached does not answer its first requests with 503. Returns false on time-out;
     * the store keeps trying in the background either way.
     */
    public boolean awaitConnected(java.time.Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!client.getUnavailableServers().isEmpty()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private static ScheduledThreadPoolExecutor timeoutScheduler() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, daemonThreads("memcached-timeout"));
        // Almost every timer is cancelled because Memcached answered: drop those at once.
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
