package org.testbed.runner.host;

/**
 * The server's machine stopped answering over ssh in the middle of a run. The run stops there: the
 * steps measured so far are kept, and this says which step it was in.
 */
public final class ServerLostException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public ServerLostException(String message) {
        super(message);
    }

    /** The same loss, naming the step it happened in ({@code vertx mix 64 users}). */
    public ServerLostException during(String step) {
        return new ServerLostException(getMessage() + " during " + step);
    }
}
