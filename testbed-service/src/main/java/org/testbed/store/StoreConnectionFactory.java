package org.testbed.store;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import net.spy.memcached.BinaryConnectionFactory;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.FailureMode;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedConnection;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;
import net.spy.memcached.OperationFactory;

/**
 * How the store talks to Memcached, configured for the contract rather than for spymemcached's
 * defaults. A factory of its own (not {@code ConnectionFactoryBuilder}) because only a factory can
 * choose the connection class, {@link ReconnectSafeConnection}, and the operations,
 * {@link OpaqueCheckedOperationFactory}'s.
 *
 * <ul>
 *   <li>Binary protocol: its store replies carry the new CAS, so create and update return an ETag
 *       without a second round trip (the text protocol's {@code add} does not).</li>
 *   <li>Ketama consistent hashing across {@code MEMCACHED_SERVERS}.</li>
 *   <li>{@link FailureMode#Cancel}: while a server is down its operations fail at once (a fast 503)
 *       instead of being redistributed to another server, which would fork the data.</li>
 *   <li>Reconnect at most 1 s apart (spymemcached's default backs off to 30 s), so the service
 *       recovers within seconds of Memcached coming back, and after {@value #TIMEOUTS_BEFORE_RECONNECT}
 *       time-outs in a row, so a hung server's connection is replaced.</li>
 *   <li>Enqueueing never blocks longer than the timeout: spymemcached's default would block a
 *       request thread for 10 s once a hung server's queue is full.</li>
 *   <li>Every reply is checked against the operation that reads it (its opaque): one read for
 *       another operation drops the connection instead of answering a caller with another's
 *       reply. spymemcached checks it only in an {@code assert}.</li>
 * </ul>
 */
final class StoreConnectionFactory extends BinaryConnectionFactory {
    /** Time-outs in a row, seen by callers waiting on a sent operation, before a reconnect. */
    static final int TIMEOUTS_BEFORE_RECONNECT = 3;
    private static final long MAX_RECONNECT_DELAY_SECONDS = 1;

    private final long timeoutMillis;
    private final ExecutorService callbacks;
    /** One for the client and its connection, so that one count holds every mismatch. */
    private final OpaqueCheckedOperationFactory checkedOperations = new OpaqueCheckedOperationFactory();
    private final boolean checkReplies;

    StoreConnectionFactory(long timeoutMillis, ExecutorService callbacks, boolean checkReplies) {
        super(DEFAULT_OP_QUEUE_LEN, DEFAULT_READ_BUFFER_SIZE, DefaultHashAlgorithm.KETAMA_HASH);
        this.timeoutMillis = timeoutMillis;
        this.callbacks = callbacks;
        this.checkReplies = checkReplies;
    }

    @Override
    public OperationFactory getOperationFactory() {
        return checkReplies ? checkedOperations : super.getOperationFactory();
    }

    /** Replies read for another operation so far; each dropped the connection. */
    long mismatchedReplies() {
        return checkedOperations.mismatchedReplies();
    }

    @Override
    public MemcachedConnection createConnection(List<InetSocketAddress> addresses) throws IOException {
        return new ReconnectSafeConnection(getReadBufSize(), this, addresses, getInitialObservers(),
                getFailureMode(), getOperationFactory());
    }

    @Override
    public NodeLocator createLocator(List<MemcachedNode> nodes) {
        return new KetamaNodeLocator(nodes, getHashAlg());
    }

    @Override
    public FailureMode getFailureMode() {
        return FailureMode.Cancel;
    }

    @Override
    public long getOperationTimeout() {
        return timeoutMillis;
    }

    @Override
    public long getOpQueueMaxBlockTime() {
        return timeoutMillis;
    }

    @Override
    public long getMaxReconnectDelay() {
        return MAX_RECONNECT_DELAY_SECONDS;
    }

    /** spymemcached reconnects once its count of time-outs in a row is greater than this. */
    @Override
    public int getTimeoutExceptionThreshold() {
        return TIMEOUTS_BEFORE_RECONNECT - 1;
    }

    @Override
    public ExecutorService getListenerExecutorService() {
        return callbacks;
    }

    /** The store owns the callback pool and shuts it down itself. */
    @Override
    public boolean isDefaultExecutorService() {
        return false;
    }

    @Override
    public boolean useNagleAlgorithm() {
        return false;
    }

    @Override
    public boolean isDaemon() {
        return true;
    }
}
