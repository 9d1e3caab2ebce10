package org.testbed.runner.host;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.testbed.runfolder.environment.EmulationSection;

/**
 * Whether a server's JVM ran under an emulator on its machine: its {@code os.arch} is of another
 * arch than the machine's {@code uname -m}, one the machine's kernel cannot run itself. The 32-bit
 * arch of a 64-bit machine (an i686 JVM on x86_64, an armv7 one on aarch64) runs natively, so it is
 * not emulation. The program the kernel runs for the server's process ({@code /proc/PID/exe}) is
 * recorded beside it: under QEMU's user mode it is the emulator, which is what the figures measured.
 */
final class JvmEmulation {
    /** The archs each machine arch runs natively besides its own (its 32-bit compatibility modes). */
    private static final Map<String, Set<String>> NATIVE_TOO = Map.of(
            "x86_64", Set.of("x86", "i386", "i486", "i586", "i686"),
            "aarch64", Set.of("arm", "armv7l", "armv8l"));

    private JvmEmulation() {
    }

    /**
     * @param machineArch the machine's {@code uname -m}
     * @param jvmArch the JVM's {@code os.arch}, as {@code uname -m} names it; empty when unknown
     * @param executable the server process's {@code /proc/PID/exe} there, empty when unreadable
     */
    static Optional<EmulationSection> of(String machineArch, String jvmArch, String executable) {
        if (jvmArch.isEmpty() || machineArch.isEmpty() || jvmArch.equals(machineArch)
                || NATIVE_TOO.getOrDefault(machineArch, Set.of()).contains(jvmArch)) {
            return Optional.empty();
        }
        return Optional.of(new EmulationSection(jvmArch, machineArch, executable.strip(),
                EmulationSection.caveat(jvmArch, machineArch)));
    }
}
