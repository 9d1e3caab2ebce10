package org.testbed.ssh;

/**
 * What one {@code ssh} or {@code scp} call gave: its exit code (that of the remote command for
 * {@code ssh}, 255 for ssh's own failures), its output, and whether it was cut off at its time limit.
 */
public record RemoteResult(int exitCode, String stdout, String stderr, boolean timedOut) {

    public boolean ok() {
        return exitCode == 0 && !timedOut;
    }

    /** The remote command's output, both streams, without trailing blank lines. */
    public String output() {
        return (stdout + stderr).strip();
    }
}
