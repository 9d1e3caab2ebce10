package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;

/** Keeps the README true: every module of the build and every variant of the manifest is listed. */
class ReadmeIndexTest {
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    private final Path root = ContractVariants.repositoryRoot();

    @Test
    void everyModuleIsInTheReadmeIndex() throws IOException {
        String readme = Files.readString(root.resolve("README.md"));
        Matcher modules = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
        int count = 0;
        while (modules.find()) {
            count++;
            assertThat(readme).as("README lists module %s", modules.group(1)).contains("`" + modules.group(1) + "/`");
        }
        assertThat(count).isPositive();
    }

    @Test
    void everyVariantIsInTheReadme() throws IOException {
        String readme = Files.readString(root.resolve("README.md"));
        List<Variant> variants = VariantManifest.load(root.resolve(VariantManifest.FILE_NAME)).variants();
        assertThat(variants).isNotEmpty();
        for (Variant variant : variants) {
            assertThat(readme).as("README lists variant %s", variant.name()).contains("`" + variant.name() + "`");
        }
    }
}
