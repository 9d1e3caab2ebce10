package org.testbed.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testbed.variant.VariantManifest;

/** Where the repository is: the variants.conf and the variant jars the commands read. */
final class RepositoryRoot {
    private RepositoryRoot() {
    }

    /** {@code explicit} (--root) when given, else {@code $TESTBED_ROOT}, else the folder holding variants.conf here or above. */
    static Path find(Path explicit) {
        if (explicit != null) {
            return explicit.toAbsolutePath();
        }
        String env = System.getenv("TESTBED_ROOT");
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(VariantManifest.FILE_NAME))) {
                return p;
            }
        }
        throw new IllegalArgumentException("no variants.conf here or above " + dir + "; pass --root");
    }
}
