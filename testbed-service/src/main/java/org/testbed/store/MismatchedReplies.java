package org.testbed.store;

import java.util.concurrent.atomic.AtomicLong;
import net.spy.memcached.ops.Operation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replies a store read for an operation they did not answer: counted, and each logged with
 * both opaques, so that one shows in the service's log even though no caller ever sees it.
 */
final class MismatchedReplies {
    private static final Logger LOG = LoggerFactory.getLogger(MismatchedReplies.class);

    private final AtomicLong count = new AtomicLong();

    /** Counts and logs one; returns what to throw on the I/O thread to drop the connection. */
    MismatchedReplyException record(Operation operation, int requestOpaque, int replyOpaque) {
        long seen = count.incrementAndGet();
        String what = "reply with opaque " + replyOpaque + " read for the operation with opaque " + requestOpaque
                + " (" + operation + ")";
        LOG.warn("Memcached {}: dropping the connection and failing every operation in flight on it"
                + " ({} such replies so far)", what, seen);
        return new MismatchedReplyException(what);
    }

    long count() {
        return count.get();
    }
}
