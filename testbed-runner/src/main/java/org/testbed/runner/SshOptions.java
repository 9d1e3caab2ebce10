package org.testbed.runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.testbed.ssh.SshTarget;
import picocli.CommandLine.Option;

/**
 * How to reach another machine over ssh, with the same names wherever a command does it
 * ({@code deploy}, {@code run --server-host}). A picocli mixin.
 */
final class SshOptions {
    @Option(names = "--ssh-port", paramLabel = "N", description = "ssh port of the machine (default 22)")
    int port = 22;

    @Option(names = "--identity", paramLabel = "FILE", description = "ssh private key (ssh -i; only that key is offered)")
    Path identity;

    @Option(names = "--ssh-option", paramLabel = "OPT", description = {"an extra ssh -o option, repeatable, e.g."
            + " --ssh-option UserKnownHostsFile=FILE (the default host key policy is StrictHostKeyChecking=accept-new)"})
    List<String> options = new ArrayList<>();

    /** The machine {@code destination} ({@code USER@HOST}) reached with these options. */
    SshTarget target(String destination) {
        return SshTarget.of(destination, port, identity, options);
    }
}
