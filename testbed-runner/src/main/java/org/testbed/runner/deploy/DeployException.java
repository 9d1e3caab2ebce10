package org.testbed.runner.deploy;

import org.testbed.ssh.SshException;

/**
 * A deployment step that failed, with a message that says what went wrong and what to do. An
 * {@link SshException}, as the ssh steps of a deployment fail: a caller catches both as one.
 */
public final class DeployException extends SshException {
    private static final long serialVersionUID = 1L;

    public DeployException(String message) {
        super(message);
    }
}
