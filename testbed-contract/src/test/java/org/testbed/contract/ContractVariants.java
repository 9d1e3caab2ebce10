package org.testbed.contract;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;

/**
 * The variants under test: every line of the repository's {@code variants.conf}, or the names in
 * {@code -Dtestbed.variants=a,b}. Nothing in the suite names a variant: adding one to the manifest
 * puts it under the whole contract.
 */
final class ContractVariants {
    private ContractVariants() {
    }

    static Path repositoryRoot() {
        String root = System.getProperty("testbed.root");
        Path path = root == null || root.isBlank() ? Path.of("..").toAbsolutePath().normalize() : Path.of(root);
        if (!Files.isRegularFile(path.resolve(VariantManifest.FILE_NAME))) {
            throw new IllegalStateException("No " + VariantManifest.FILE_NAME + " in " + path + " (set -Dtestbed.root)");
        }
        return path;
    }

    static List<Variant> selected() {
        List<Variant> all = VariantManifest.load(repositoryRoot().resolve(VariantManifest.FILE_NAME)).variants();
        String wanted = System.getProperty("testbed.variants", "");
        if (wanted.isBlank()) {
            return all;
        }
        Set<String> names = Arrays.stream(wanted.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
        List<Variant> chosen = all.stream().filter(v -> names.contains(v.name())).toList();
        if (chosen.size() != names.size()) {
            throw new IllegalArgumentException("-Dtestbed.variants names unknown variants: " + names
                    + "; known: " + all.stream().map(Variant::name).toList());
        }
        return chosen;
    }

    /** For {@code @MethodSource}: each variant as an argument set named after it. */
    static Stream<Arguments> arguments() {
        return selected().stream().map(variant -> Arguments.argumentSet(variant.name(), variant));
    }
}
