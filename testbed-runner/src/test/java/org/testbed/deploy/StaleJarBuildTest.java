package org.testbed.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.variant.Variant;

/** A jar is stale when missing or older than any file it is built from, and only then. */
class StaleJarBuildTest {
    private static final Variant VERTX = new Variant("vertx", "vertx-app", "vertx-app/target/vertx.jar", "async", 17, "Vert.x");

    @Test
    void missingIsStaleNewerThanItsSourcesIsNotAnOlderSourceIsNot(@TempDir Path root) throws Exception {
        Path source = write(root, "vertx-app/src/main/java/App.java", 100);
        write(root, "pom.xml", 100);
        write(root, "testbed-common/src/main/java/Shared.java", 100);
        assertThat(StaleJarBuild.stale(root, VERTX)).as("no jar").isTrue();

        Path jar = write(root, "vertx-app/target/vertx.jar", 200);
        assertThat(StaleJarBuild.stale(root, VERTX)).as("jar newer than every source").isFalse();

        Files.setLastModifiedTime(source, FileTime.from(Instant.ofEpochSecond(300)));
        assertThat(StaleJarBuild.stale(root, VERTX)).as("the variant's source edited after the build").isTrue();

        Files.setLastModifiedTime(jar, FileTime.from(Instant.ofEpochSecond(400)));
        write(root, "testbed-common/src/main/java/Shared.java", 500);
        assertThat(StaleJarBuild.stale(root, VERTX)).as("the shared library edited after the build").isTrue();

        Files.setLastModifiedTime(jar, FileTime.from(Instant.ofEpochSecond(600)));
        write(root, "jetty-app/src/main/java/Other.java", 700);
        assertThat(StaleJarBuild.stale(root, VERTX)).as("another variant's module edited").isFalse();
    }

    private static Path write(Path root, String file, long epochSecond) throws Exception {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, file);
        Files.setLastModifiedTime(path, FileTime.from(Instant.ofEpochSecond(epochSecond)));
        return path;
    }
}
