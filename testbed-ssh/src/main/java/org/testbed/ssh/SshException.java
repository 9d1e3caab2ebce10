package org.testbed.ssh;

/**
 * A step on a machine reached over ssh that failed (no client here, no connection, a command that
 * could not run), with a message that says what went wrong and what to do: printed as it is.
 */
public class SshException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SshException(String message) {
        super(message);
    }
}
