package org.testbed.contract;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The shared libraries a process has mapped, from {@code /proc/PID/maps}, and the machine each was
 * built for, from its ELF header. Under QEMU's user-mode emulator the guest's libraries are mapped
 * by the host process itself, so this shows what an emulated JVM really loaded.
 */
final class MappedLibraries {
    /** ELF {@code e_machine} of AArch64. */
    static final int AARCH64 = 183;

    private MappedLibraries() {
    }

    /** Each mapped file whose name contains {@code .so}, once, in the order of the map. */
    static List<String> of(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps")).stream()
                .map(line -> line.split("\\s+", 6))
                .filter(fields -> fields.length == 6 && fields[5].contains(".so"))
                .map(fields -> fields[5].strip())
                .distinct().toList();
    }

    /**
     * The ELF machine of a library still on disk (a name ending in {@code (deleted)}, as for the
     * native libraries Netty unpacks, loads and removes, has none to read).
     */
    static Optional<Integer> machineOf(String library) throws IOException {
        Path file = Path.of(library);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] header = in.readNBytes(20);
            if (header.length < 20 || header[0] != 0x7f || header[1] != 'E' || header[2] != 'L' || header[3] != 'F') {
                return Optional.empty();
            }
            // e_machine: two bytes at offset 18, little-endian (EI_DATA 1) on both x86_64 and aarch64.
            return Optional.of((header[18] & 0xff) | (header[19] & 0xff) << 8);
        }
    }
}
