package org.testbed.arm64;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The packages link their configuration by absolute paths ({@code lib/jvm.cfg} to
 * {@code /etc/java-17-openjdk/jvm-arm64.cfg}), which the kernel would resolve on the host, where
 * the arm64 files are not. Such links are made relative, to the same file inside the sysroot; a link
 * whose target only the host has (the CA store, generated on install) is left to the host.
 */
final class SysrootLinks {
    private SysrootLinks() {
    }

    static void keepInside(Path root) throws IOException {
        List<Path> links;
        try (Stream<Path> all = Files.walk(root)) {
            links = all.filter(Files::isSymbolicLink).toList();
        }
        for (Path link : links) {
            Path target = Files.readSymbolicLink(link);
            if (!target.isAbsolute()) {
                continue;
            }
            Path inside = root.resolve(target.toString().substring(1));
            if (Files.exists(inside, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(link);
                Files.createSymbolicLink(link, link.getParent().relativize(inside));
            }
        }
    }
}
