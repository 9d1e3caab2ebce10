package org.testbed.deploy;

/** A deployment step that failed, with a message that says what went wrong and what to do. */
public final class DeployException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DeployException(String message) {
        super(message);
    }
}
