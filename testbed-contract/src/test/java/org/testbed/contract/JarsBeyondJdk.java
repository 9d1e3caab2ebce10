package org.testbed.contract;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.testbed.variant.Variant;

/**
 * One variant per jar of {@code variants.conf} for a suite whose JVM is an older JDK than some
 * variants need (the emulated arm64 JVM and the podman lab's base images are Debian 12's JDK 17):
 * the first of each jar's lines that runs there. A jar none of whose lines runs there (helidon-se:
 * Helidon 4 is Java 21 code) gets a line of its own in the contract summary saying why it is
 * skipped, so that its absence is read, not guessed.
 */
final class JarsBeyondJdk {
    private JarsBeyondJdk() {
    }

    static Stream<Arguments> firstRunnablePerJar(String suite, int jdkFeature, String jvm) {
        Map<String, Variant> firstPerJar = new LinkedHashMap<>();
        Map<String, List<Variant>> byJar = ContractVariants.selected().stream()
                .collect(Collectors.groupingBy(Variant::jar, LinkedHashMap::new, Collectors.toList()));
        byJar.forEach((jar, variants) -> {
            variants.stream().filter(variant -> variant.minJdk() <= jdkFeature).findFirst()
                    .ifPresentOrElse(variant -> firstPerJar.put(jar, variant), () -> ContractSummary.line(suite,
                            variants.stream().map(Variant::name).collect(Collectors.joining(", ")) + " skipped: needs JDK "
                                    + variants.stream().mapToInt(Variant::minJdk).min().orElseThrow() + ", and " + jvm
                                    + " is a " + jdkFeature));
        });
        return firstPerJar.values().stream().map(variant -> Arguments.argumentSet(variant.name(), variant));
    }
}
