package org.testbed.runfolder.environment;

/**
 * environment.json's {@code server_machine.emulation}, present only when the server's JVM ran under
 * an emulator there: its code is of one arch, the machine's kernel of another, so an instruction
 * emulator (QEMU's user mode) translated every instruction. Known from two readings there that do
 * not depend on each other: the JVM's {@code os.arch} against {@code uname -m}, and the program the
 * kernel runs for the server's process ({@code /proc/PID/exe}), which is the emulator, not java.
 *
 * @param jvmArch the arch of the server's JVM ({@code os.arch}), e.g. {@code aarch64}
 * @param machineArch the arch of the machine it ran on ({@code uname -m}), e.g. {@code x86_64}
 * @param executable what the kernel ran for the server's process there ({@code /proc/PID/exe}), e.g.
 *                   {@code /usr/bin/qemu-aarch64-static}; empty when it could not be read
 * @param caveat what the run's figures are worth, in words the report and compare repeat
 */
@EnvironmentSection
public record EmulationSection(String jvmArch, String machineArch, String executable, String caveat) {

    /**
     * The caveat: emulated figures show the mechanics (that it starts, serves and is measured),
     * never the performance of a machine of that arch.
     */
    public static String caveat(String jvmArch, String machineArch) {
        return "the server's " + jvmArch + " JVM was emulated on an " + machineArch + " machine: its figures are"
                + " mechanics, not performance (it started, served and was measured, but an emulator translates every"
                + " instruction, tens of times slower than " + jvmArch + " hardware; no throughput, latency or CPU figure"
                + " of this run says anything about an " + jvmArch + " machine)";
    }

    /** The arch of the server's code, and how it ran: {@code aarch64, emulated on x86_64 by /usr/bin/qemu-aarch64-static}. */
    public String describe() {
        return jvmArch + ", emulated on " + machineArch + (executable.isEmpty() ? "" : " by " + executable);
    }
}
