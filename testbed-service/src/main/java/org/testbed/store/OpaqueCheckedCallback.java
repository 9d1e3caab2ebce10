package org.testbed.store;

import net.spy.memcached.ops.CancelledOperationStatus;
import net.spy.memcached.ops.DeleteOperation;
import net.spy.memcached.ops.GetsOperation;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationCallback;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StoreOperation;
import net.spy.memcached.ops.TimedOutOperationStatus;

/**
 * An operation's callback that lets nothing of a reply through unless it is a reply (its magic
 * byte) and carries the operation's own opaque. spymemcached calls it from within the read of a reply, after the reply's
 * header and body are read and before the caller's callback would see them: on a mismatch it
 * throws {@link MismatchedReplyException} there, and the caller's callback gets nothing but the
 * cancellation that follows when spymemcached drops the connection.
 *
 * <p>Statuses that no reply caused (a cancellation, a time-out, from any thread) pass unchecked.
 * One class for the callbacks of the operations the store sends ({@code gets}, the stores, the
 * {@code cas}, {@code delete}; {@code version} and {@code noop} take a plain callback).
 */
final class OpaqueCheckedCallback implements GetsOperation.Callback, StoreOperation.Callback, DeleteOperation.Callback {
    private final OperationCallback caller;
    private final MismatchedReplies mismatches;
    /**
     * Set once, right after the operation is made and before it is queued: the queue hands it to
     * the I/O thread, which is the only one that checks.
     */
    private Operation operation;

    OpaqueCheckedCallback(OperationCallback caller, MismatchedReplies mismatches) {
        this.caller = caller;
        this.mismatches = mismatches;
    }

    /** The operation this callback belongs to; returns it. */
    <T extends Operation> T checking(T operation) {
        this.operation = operation;
        return operation;
    }

    @Override
    public void receivedStatus(OperationStatus status) {
        if (!(status instanceof CancelledOperationStatus) && !(status instanceof TimedOutOperationStatus)) {
            requireOwnReply();
        }
        caller.receivedStatus(status);
    }

    @Override
    public void gotData(String key, int flags, long cas, byte[] data) {
        requireOwnReply();
        ((GetsOperation.Callback) caller).gotData(key, flags, cas, data);
    }

    @Override
    public void gotData(String key, long cas) {
        requireOwnReply();
        ((StoreOperation.Callback) caller).gotData(key, cas);
    }

    @Override
    public void gotData(long cas) {
        requireOwnReply();
        ((DeleteOperation.Callback) caller).gotData(cas);
    }

    @Override
    public void complete() {
        caller.complete();
    }

    private void requireOwnReply() {
        byte magic = BinaryOpaques.replyMagic(operation);
        if (magic != BinaryOpaques.REPLY_MAGIC) {
            throw mismatches.recordNotAReply(operation, magic);
        }
        int request = BinaryOpaques.request(operation);
        int reply = BinaryOpaques.reply(operation);
        if (reply != request) {
            throw mismatches.record(operation, request, reply);
        }
    }
}
