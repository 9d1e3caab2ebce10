package org.testbed.runfolder.environment;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Optional;

/**
 * environment.json's {@code server_machine} in a two-machine ({@code --server-host}) run: the
 * server's machine with the same keys as {@code machine} (and its allowed CPUs, its role
 * {@code server}), then where the variants ran there and on which JDKs, as that machine sees them.
 *
 * @param facts the machine, its keys at this level
 * @param pinning that the runner does not pin the server's machine
 * @param directory the directory there that holds a folder per variant
 * @param address the address and port the load was sent to
 * @param jdks the JDKs the variants ran on there
 * @param emulation present only when the server's JVM ran under an emulator there (an aarch64 JVM on an
 *                  x86_64 machine): how that is known, and that the run's figures are mechanics, not performance
 */
@EnvironmentSection
public record ServerMachineSection(@JsonUnwrapped MachineSection facts, String pinning, String directory, String address,
                                   List<JdkSection> jdks, Optional<EmulationSection> emulation) {

    public ServerMachineSection {
        emulation = emulation == null ? Optional.empty() : emulation;
    }
}
