package org.testbed.ssh;

import java.util.Locale;

/**
 * Why ssh could not reach a target, told from what OpenSSH printed, each with the one line a user
 * needs: what failed and what to check.
 */
public enum SshFailure {
    AUTHENTICATION, CONNECTION_REFUSED, UNREACHABLE, UNKNOWN_HOST, HOST_KEY, TIMEOUT, OTHER;

    /** The kind of failure ssh's standard error describes. */
    public static SshFailure classify(String sshStderr) {
        String err = sshStderr.toLowerCase(Locale.ROOT);
        if (err.contains("permission denied") || err.contains("too many authentication failures")) {
            return AUTHENTICATION;
        }
        if (err.contains("connection refused")) {
            return CONNECTION_REFUSED;
        }
        if (err.contains("host key verification failed") || err.contains("identification has changed")) {
            return HOST_KEY;
        }
        if (err.contains("could not resolve")) {
            return UNKNOWN_HOST;
        }
        if (err.contains("timed out") || err.contains("no route to host") || err.contains("network is unreachable")) {
            return UNREACHABLE;
        }
        return OTHER;
    }

    /** The message for this failure to reach {@code target}; {@code sshSaid} is ssh's own words. */
    public String message(SshTarget target, String sshSaid) {
        String said = sshSaid.strip().replaceAll("\\s*\\R\\s*", "; ");
        String host = target.host();
        int port = target.port();
        return switch (this) {
            case AUTHENTICATION -> "ssh authentication to " + target.destination() + " failed"
                    + (target.identity() == null ? "" : " with key " + target.identity())
                    + ": check the user name, --identity, and that the public key is in ~/.ssh/authorized_keys"
                    + " on the machine (ssh said: " + said + ")";
            case CONNECTION_REFUSED -> "nothing accepts ssh on " + host + " port " + port
                    + " (connection refused): is sshd running, is --port right?";
            case UNREACHABLE -> host + " port " + port + " is unreachable: " + said;
            case UNKNOWN_HOST -> "unknown host '" + host + "': " + said;
            case HOST_KEY -> "the host key of " + host + " does not match known_hosts (or is unknown and checking"
                    + " is strict): " + said;
            case TIMEOUT -> "no answer from " + target.destination() + " (ssh port " + port + ") within "
                    + SshTarget.CONNECT_CHECK_LIMIT.toSeconds() + " s";
            case OTHER -> "ssh to " + target.destination() + " failed: " + said;
        };
    }
}
