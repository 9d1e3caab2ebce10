package org.testbed.item;

/** A request body that is not a valid item; the message is safe to show to the client. */
public final class InvalidItemException extends RuntimeException {
    public InvalidItemException(String message) {
        // No stack trace: this is an expected outcome of bad input, thrown on the request path.
        super(message, null, false, false);
    }
}
