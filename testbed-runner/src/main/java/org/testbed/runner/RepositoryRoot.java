package org.testbed.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testbed.variant.VariantManifest;

/** The repository the commands work on: --root, else $TESTBED_ROOT, else the folder holding variants.conf here or above. */
final class RepositoryRoot {
    private RepositoryRoot() {
    }

    static Path resolve(Path explicit) {
        if (explicit != null) {
            return explicit.toAbsolutePath().normalize();
        }
        String env = System.getenv("TESTBED_ROOT");
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(VariantManifest.FILE_NAME))) {
                return p;
            }
        }
        throw new IllegalArgumentException("no " + VariantManifest.FILE_NAME + " here or above " + dir + "; pass --root");
    }
}
