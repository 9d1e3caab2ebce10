package org.testbed.store;

import net.spy.memcached.ops.CASOperation;
import net.spy.memcached.ops.DeleteOperation;
import net.spy.memcached.ops.GetsOperation;
import net.spy.memcached.ops.NoopOperation;
import net.spy.memcached.ops.OperationCallback;
import net.spy.memcached.ops.StoreOperation;
import net.spy.memcached.ops.StoreType;
import net.spy.memcached.ops.VersionOperation;
import net.spy.memcached.protocol.binary.BinaryOperationFactory;

/**
 * spymemcached's binary operations, each with an {@link OpaqueCheckedCallback}: a reply is taken
 * only by the operation whose opaque it carries. The operations the store sends are covered;
 * others (multi-gets, quiet and optimised operations, whose replies carry several opaques) are
 * made as spymemcached makes them, and the store sends none of them.
 */
final class OpaqueCheckedOperationFactory extends BinaryOperationFactory {
    private final MismatchedReplies mismatches = new MismatchedReplies();

    /** The replies read for another operation so far, each of which dropped the connection. */
    long mismatchedReplies() {
        return mismatches.count();
    }

    @Override
    public GetsOperation gets(String key, GetsOperation.Callback callback) {
        OpaqueCheckedCallback checked = checked(callback);
        return checked.checking(super.gets(key, checked));
    }

    @Override
    public StoreOperation store(StoreType type, String key, int flags, int exp, byte[] data,
                                StoreOperation.Callback callback) {
        OpaqueCheckedCallback checked = checked(callback);
        return checked.checking(super.store(type, key, flags, exp, data, checked));
    }

    @Override
    public CASOperation cas(StoreType type, String key, long casId, int flags, int exp, byte[] data,
                            StoreOperation.Callback callback) {
        OpaqueCheckedCallback checked = checked(callback);
        return checked.checking(super.cas(type, key, casId, flags, exp, data, checked));
    }

    @Override
    public DeleteOperation delete(String key, DeleteOperation.Callback callback) {
        OpaqueCheckedCallback checked = checked(callback);
        return checked.checking(super.delete(key, checked));
    }

    @Override
    public DeleteOperation delete(String key, long cas, DeleteOperation.Callback callback) {
        OpaqueCheckedCallback checked = checked(callback);
        return checked.checking(super.delete(key, cas, checked));
    }

    @Override
    public VersionOperation version(OperationCallback callback) {
        OpaqueCheckedCallback checked = checked(callback);
        return checked.checking(super.version(checked));
    }

    @Override
    public NoopOperation noop(OperationCallback callback) {
        OpaqueCheckedCallback checked = checked(callback);
        return checked.checking(super.noop(checked));
    }

    private OpaqueCheckedCallback checked(OperationCallback callback) {
        return new OpaqueCheckedCallback(callback, mismatches);
    }
}
