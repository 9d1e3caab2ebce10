package org.testbed.arm64;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * An aarch64 JVM run on this machine by QEMU's user-mode emulator: {@code qemu-aarch64-static -L
 * SYSROOT SYSROOT/.../bin/java}. The emulator is named on the command line, so no binfmt_misc
 * registration is needed; {@code -L} makes the guest's loader and libraries come from the sysroot.
 * Either the command that starts it, or why it cannot be had here, in words a test can skip with.
 */
public record EmulatedArm64Jvm(Path emulator, Path sysroot) {
    /** The emulator binary, as Debian's qemu-user-static installs it. */
    public static final String EMULATOR = "qemu-aarch64-static";

    /** The launcher, to be followed by JVM options: the emulator, its sysroot, the arm64 {@code java}. */
    public List<String> javaCommand() {
        return List.of(emulator.toString(), "-L", sysroot.toString(), sysroot.resolve(Arm64Sysroot.JAVA).toString());
    }

    /** What this machine has: the JVM, or the reason it has none. */
    public sealed interface Availability {
    }

    public record Available(EmulatedArm64Jvm jvm) implements Availability {
    }

    public record Missing(String reason) implements Availability {
    }

    /**
     * The emulator on the PATH and a sysroot from {@code sysroot}'s cache, built there first if the
     * cache has none and this machine can build one (Debian's apt). The host's own architecture is
     * not looked at: on an arm64 host the emulator still runs the JVM, only slower than it need be.
     */
    public static Availability locate(Arm64Sysroot sysroot, java.io.PrintStream console) {
        return locate(Commands.onPath(EMULATOR), sysroot, console);
    }

    /** As {@link #locate(Arm64Sysroot, java.io.PrintStream)} with the emulator found, or not, already. */
    static Availability locate(Optional<Path> emulator, Arm64Sysroot sysroot, java.io.PrintStream console) {
        if (emulator.isEmpty()) {
            return new Missing(EMULATOR + " is not installed (Debian: apt-get install qemu-user-static; ./testbed test"
                    + " installs it when run as root)");
        }
        Optional<Path> prepared = sysroot.prepared();
        if (prepared.isPresent()) {
            return new Available(new EmulatedArm64Jvm(emulator.get(), prepared.get()));
        }
        Optional<String> missingTools = Arm64Sysroot.missingTools();
        if (missingTools.isPresent()) {
            return new Missing("no arm64 JVM prepared in " + sysroot.cache() + " and " + missingTools.get());
        }
        try {
            return new Available(new EmulatedArm64Jvm(emulator.get(), sysroot.prepare(console)));
        } catch (java.io.IOException | RuntimeException e) {
            return new Missing("the arm64 JVM could not be prepared in " + sysroot.cache() + ": " + e.getMessage());
        }
    }
}
