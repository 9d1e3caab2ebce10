package org.testbed.contract;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * QEMU's aarch64 handler in the kernel's binfmt_misc, what a {@code RUN} of an arm64 image build
 * needs on an x86_64 machine. Registered here when missing and root, as a user would: with
 * binfmt-support's {@code update-binfmts --enable qemu-aarch64} (qemu-user-static's entry), else by
 * mounting binfmt_misc and writing qemu-user-static's systemd-binfmt rule (a machine without systemd
 * has it unregistered). Otherwise, or when registered without the F flag, it says why the arm64
 * image cannot be built here.
 */
final class Arm64Binfmt {
    private static final Path BINFMT = Path.of("/proc/sys/fs/binfmt_misc");
    private static final Path HANDLER = BINFMT.resolve("qemu-aarch64");
    private static final Path BINFMT_SUPPORT_ENTRY = Path.of("/usr/share/binfmts/qemu-aarch64");
    private static final Path SYSTEMD_RULE = Path.of("/usr/lib/binfmt.d/qemu-aarch64.conf");

    private Arm64Binfmt() {
    }

    /** Null when arm64 binaries run in a container here, else why not (after trying to register the handler). */
    static synchronized String missing() {
        if (!enabled() && "root".equals(System.getProperty("user.name"))) {
            register();
        }
        if (!enabled()) {
            return "no QEMU binfmt handler for aarch64 (" + HANDLER + "): apt-get install qemu-user-static binfmt-support,"
                    + " then as root update-binfmts --enable qemu-aarch64";
        }
        // Without F the kernel opens the interpreter by its path inside the container's root, which an image lacks.
        String flags = handlerLine("flags:");
        if (!flags.contains("F")) {
            return "QEMU's aarch64 binfmt handler is registered without the F (fix-binary) flag (" + flags.strip()
                    + "), so containers cannot reach its interpreter: re-register it with update-binfmts --enable qemu-aarch64";
        }
        return null;
    }

    private static boolean enabled() {
        return handlerLine("enabled").equals("enabled");
    }

    private static String handlerLine(String prefix) {
        try {
            return Files.isRegularFile(HANDLER)
                    ? Files.readAllLines(HANDLER).stream().filter(line -> line.startsWith(prefix)).findFirst().orElse("")
                    : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static void register() {
        try {
            if (Files.isRegularFile(BINFMT_SUPPORT_ENTRY) && LocalBaseImages.onPath("update-binfmts")) {
                // update-binfmts mounts binfmt_misc itself when it is not
                LocalBaseImages.run(List.of("update-binfmts", "--enable", "qemu-aarch64"));
            } else if (Files.isRegularFile(SYSTEMD_RULE)) {
                if (!Files.exists(BINFMT.resolve("register"))) {
                    LocalBaseImages.run(List.of("mount", "-t", "binfmt_misc", "binfmt_misc", BINFMT.toString()));
                }
                Files.writeString(BINFMT.resolve("register"), Files.readString(SYSTEMD_RULE).strip(), StandardCharsets.US_ASCII);
            } else {
                return;
            }
            System.out.println("testbed: registered QEMU's aarch64 binfmt handler for the arm64 image test");
        } catch (IOException | RuntimeException e) {
            System.out.println("testbed: could not register QEMU's aarch64 binfmt handler: " + e.getMessage());
        }
    }
}
