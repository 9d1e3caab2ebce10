package org.testbed.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import org.testbed.variant.VariantManifest;

/**
 * Finds the repository checkout the benchmarks run in: the variant jars and {@code variants.conf}
 * live there. Benchmarks run in forked JVMs whose only link to the checkout is the path of
 * {@code benchmarks.jar} and the working directory, so look in this order: the {@code testbed.root}
 * system property ({@code -jvmArgsAppend -Dtestbed.root=...}), the directories above
 * {@code benchmarks.jar} ({@code jmh-bench/target/benchmarks.jar}), the directories above the
 * working directory. No checkout found is an error, never a skip.
 */
final class Repository {
    private Repository() {
    }

    static Path root() {
        String configured = System.getProperty("testbed.root");
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured).toAbsolutePath().normalize();
            if (!hasManifest(path)) {
                throw new IllegalStateException("-Dtestbed.root=" + configured + " holds no " + VariantManifest.FILE_NAME);
            }
            return path;
        }
        Path found = search(codeLocation());
        if (found == null) {
            found = search(Path.of("").toAbsolutePath());
        }
        if (found == null) {
            throw new IllegalStateException("Cannot find the testbed checkout (a directory holding "
                    + VariantManifest.FILE_NAME + ") above " + codeLocation() + " or the working directory "
                    + Path.of("").toAbsolutePath() + "; run from the checkout or pass -jvmArgsAppend -Dtestbed.root=PATH");
        }
        return found;
    }

    private static Path search(Path start) {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (hasManifest(dir)) {
                return dir;
            }
        }
        return null;
    }

    private static boolean hasManifest(Path dir) {
        return Files.isRegularFile(dir.resolve(VariantManifest.FILE_NAME));
    }

    private static Path codeLocation() {
        try {
            CodeSource source = Repository.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
