package org.testbed.ssh;

/**
 * A machine stopped answering over ssh: ssh itself failed (exit 255) or gave no answer in time.
 * What runs there cannot go on, so whoever drives it stops: a run keeps the steps measured so far,
 * and this says which step it was in.
 */
public final class ConnectionLostException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public ConnectionLostException(String message) {
        super(message);
    }

    /** The same loss, naming the step it happened in ({@code vertx mix 64 users}). */
    public ConnectionLostException during(String step) {
        return new ConnectionLostException(getMessage() + " during " + step);
    }
}
