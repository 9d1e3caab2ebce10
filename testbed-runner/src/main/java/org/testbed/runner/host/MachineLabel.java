package org.testbed.runner.host;

import java.util.Optional;
import org.testbed.runfolder.environment.EmulationSection;
import org.testbed.runner.env.Environment;

/**
 * The server's machine as results.csv names it in every row: host, arch, CPU model and CPUs. For a
 * run with {@code --server-host} that is the server's machine, not the load machine: it is the
 * server that two such runs compare. A server whose JVM ran under an emulator is named by the arch of
 * its code, the JVM's ({@code aarch64} on an x86_64 machine), with {@code emulation} saying so.
 */
public record MachineLabel(String host, String arch, String cpuModel, int cpus, Optional<EmulationSection> emulation) {

    /** This machine. */
    public static MachineLabel local() {
        return new MachineLabel(Environment.hostName(), Environment.arch(), Environment.cpuModel(), Environment.cpus(),
                Optional.empty());
    }

    /** Its arch for the console: {@code x86_64}, or {@code aarch64, emulated on x86_64 by /usr/bin/qemu-aarch64-static}. */
    public String describeArch() {
        return emulation.map(EmulationSection::describe).orElse(arch);
    }
}
