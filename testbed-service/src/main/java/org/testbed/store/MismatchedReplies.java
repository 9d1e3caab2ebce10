package org.testbed.store;

import java.util.concurrent.atomic.AtomicLong;
import net.spy.memcached.ops.Operation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replies a store read for an operation they did not answer, and the frames it read as
 * replies that were not replies: counted, and each logged with what was wrong, so that one shows
 * in the service's log even though no caller ever sees it.
 */
final class MismatchedReplies {
    private static final Logger LOG = LoggerFactory.getLogger(MismatchedReplies.class);

    private final AtomicLong count = new AtomicLong();

    /** Counts and logs one; returns what to throw on the I/O thread to drop the connection. */
    MismatchedReplyException record(Operation operation, int requestOpaque, int replyOpaque) {
        return dropping("reply with opaque " + replyOpaque + " read for the operation with opaque " + requestOpaque
                + " (" + operation + ")");
    }

    /**
     * Counts and logs a frame read as {@code operation}'s reply whose magic byte is not a reply's;
     * returns what to throw on the I/O thread to drop the connection.
     */
    MismatchedReplyException recordNotAReply(Operation operation, byte magic) {
        String kind = magic == (byte) 0x80 ? "a request (the connection reads its own writes: connected to itself?)"
                : "not a binary reply";
        return dropping(String.format("frame with magic 0x%02x, %s, read as the reply to %s", magic & 0xff, kind,
                operation));
    }

    private MismatchedReplyException dropping(String what) {
        long seen = count.incrementAndGet();
        LOG.warn("Memcached {}: dropping the connection and failing every operation in flight on it"
                + " ({} such replies so far)", what, seen);
        return new MismatchedReplyException(what);
    }

    long count() {
        return count.get();
    }
}
