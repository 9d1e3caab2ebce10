package org.testbed.runner.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build's fingerprint follows the sources a jar is built from, and nothing else. */
class SourceFingerprintTest {
    @TempDir
    Path root;

    @Test
    void theSameSourcesGiveTheSameFingerprintAndAChangedOneAnother() throws Exception {
        Files.writeString(root.resolve("pom.xml"), "<project><artifactId>p</artifactId><modules><module>a</module>"
                + "<module>b</module></modules></project>");
        Files.writeString(root.resolve("variants.conf"), "a\n");
        for (String module : List.of("a", "b")) {
            Files.createDirectories(root.resolve(module).resolve("src/main/java"));
            Files.writeString(root.resolve(module).resolve("pom.xml"), "<project><artifactId>" + module + "</artifactId>"
                    + (module.equals("a") ? "<dependencies><dependency><artifactId>b</artifactId></dependency></dependencies>" : "")
                    + "</project>");
            Files.writeString(root.resolve(module).resolve("src/main/java/X.java"), "class X {}");
        }
        String first = SourceFingerprint.of(root, List.of("a"));
        assertThat(first).matches("sha256:[0-9a-f]{16}");

        Files.createDirectories(root.resolve("a/target"));
        Files.writeString(root.resolve("a/target/a.jar"), "built again");
        Files.createDirectories(root.resolve("a/src/test"));
        Files.writeString(root.resolve("a/src/test/T.java"), "class T {}");
        assertThat(SourceFingerprint.of(root, List.of("a"))).as("a jar built again, a test added").isEqualTo(first);

        Files.writeString(root.resolve("b/src/main/java/X.java"), "class X { int changed; }");
        assertThat(SourceFingerprint.of(root, List.of("a"))).as("a source of a module it depends on changed").isNotEqualTo(first);
    }
}
