package org.testbed.store;

/**
 * A reply was read for an operation it does not answer (its opaque is another operation's).
 * Thrown on spymemcached's I/O thread from within the read of that reply, before anything of it
 * reaches a caller: spymemcached then drops the connection, as for any error while reading, and
 * cancels every operation in flight on it, so each of their callers answers 503.
 */
final class MismatchedReplyException extends RuntimeException {
    MismatchedReplyException(String message) {
        // No stack trace: the message says all, and it is thrown where spymemcached catches it.
        super(message, null, false, false);
    }
}
