package org.testbed.store;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.ConnectionObserver;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedConnection;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.OperationFactory;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationState;

/**
 * spymemcached's connection, with what it does when it drops a connection made safe.
 *
 * <p>On a reconnect (after time-outs in a row, or an I/O error) spymemcached 2.12.3 keeps the
 * operation at the head of its write queue to send it again on the new connection. When that
 * operation was already partly copied into the socket it is also on the read queue, which the
 * reconnect clears, and nothing puts it back: on the new connection it is sent, but no one waits
 * for its reply. Every later operation then reads the reply meant for the one before it, a read of
 * a stored item answers "not found" or another item's value, until some reply fails to parse and
 * the connection drops again (the library checks a binary reply's opaque only in an assert; the
 * store now checks it always, {@link OpaqueCheckedCallback}, so such a shift would drop the
 * connection at its first reply instead).
 *
 * <p>Taking that operation off the write queue first lets the reconnect cancel it along with the
 * others already sent, so its caller gets the same "unavailable" as theirs. Its write may or may
 * not have reached the server, as for every operation in flight when a connection drops.
 */
final class ReconnectSafeConnection extends MemcachedConnection {

    ReconnectSafeConnection(int bufferSize, ConnectionFactory factory, List<InetSocketAddress> addresses,
                            Collection<ConnectionObserver> observers, FailureMode failureMode,
                            OperationFactory operations) throws IOException {
        super(bufferSize, factory, addresses, observers, failureMode, operations);
    }

    /** Runs on the I/O thread, the only one that touches a node's read and write queues. */
    @Override
    protected void queueReconnect(MemcachedNode node) {
        Operation head = node.getCurrentWriteOp();
        if (head != null && head.getState() == OperationState.WRITING) {
            // Partly written: it is on the read queue too, and the reconnect cancels what is there.
            node.removeCurrentWriteOp();
        }
        super.queueReconnect(node);
    }
}
