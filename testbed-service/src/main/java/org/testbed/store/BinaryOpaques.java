package org.testbed.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.protocol.binary.OperationImpl;

/**
 * The two opaques of a binary operation: the one its request carried and the one its reply
 * carried back. Memcached copies a request's opaque into its reply, so they differ only when a
 * reply was read for an operation it does not answer. And the magic byte of what was read as the
 * reply: a reply's is {@link #REPLY_MAGIC}, a request's {@code 0x80}. A request read back, with
 * its own opaque, is what a connection gets that reads its own writes: a socket that the kernel
 * connected to itself (a reconnect to a dead server whose port is in the ephemeral range can draw
 * that very port as its own) answers every operation with its own request, which spymemcached
 * would take for a success.
 *
 * <p>spymemcached 2.12.3 keeps both in protected fields of {@link OperationImpl} and compares them
 * only in an {@code assert}, which services run without (and which, when it fails, stops the
 * client's I/O thread). They are read here through {@link VarHandle}s: the fields are not
 * reachable otherwise, and a VarHandle read costs what a field read costs once compiled.
 */
final class BinaryOpaques {
    private static final VarHandle REQUEST;
    private static final VarHandle REPLY;
    private static final VarHandle HEADER;
    /** The first byte of every binary reply header (a request's is 0x80). */
    static final byte REPLY_MAGIC = (byte) 0x81;

    static {
        try {
            MethodHandles.Lookup fields = MethodHandles.privateLookupIn(OperationImpl.class, MethodHandles.lookup());
            REQUEST = fields.findVarHandle(OperationImpl.class, "opaque", int.class);
            REPLY = fields.findVarHandle(OperationImpl.class, "responseOpaque", int.class);
            HEADER = fields.findVarHandle(OperationImpl.class, "header", byte[].class);
        } catch (ReflectiveOperationException e) {
            // Only another spymemcached than the one the parent pom pins could get here: fail at start.
            throw new ExceptionInInitializerError("spymemcached's binary operations have no opaque or header fields: " + e);
        }
    }

    private BinaryOpaques() {
    }

    /** The opaque {@code operation}'s request carried. */
    static int request(Operation operation) {
        return (int) REQUEST.get((OperationImpl) operation);
    }

    /** The opaque of the reply header last read for {@code operation}. */
    static int reply(Operation operation) {
        return (int) REPLY.get((OperationImpl) operation);
    }

    /** The magic byte of the header last read for {@code operation}: {@link #REPLY_MAGIC} for a reply. */
    static byte replyMagic(Operation operation) {
        return ((byte[]) HEADER.get((OperationImpl) operation))[0];
    }
}
