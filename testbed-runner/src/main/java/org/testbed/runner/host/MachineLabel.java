package org.testbed.runner.host;

import org.testbed.runner.env.Environment;

/**
 * The server's machine as results.csv names it in every row: host, arch, CPU model and CPUs. For a
 * run with {@code --server-host} that is the server's machine, not the load machine: it is the
 * server that two such runs compare.
 */
public record MachineLabel(String host, String arch, String cpuModel, int cpus) {

    /** This machine. */
    public static MachineLabel local() {
        return new MachineLabel(Environment.hostName(), Environment.arch(), Environment.cpuModel(), Environment.cpus());
    }
}
