package org.testbed.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.variant.Variant;

/**
 * A jar is stale when missing or older than any file it is built from, and only then; the modules
 * it is built from come from the poms.
 */
class StaleJarBuildTest {
    private static final Variant VERTX = new Variant("vertx", "vertx-app", "vertx-app/target/vertx.jar", "async", 17, "Vert.x");

    @Test
    void missingIsStaleNewerThanItsSourcesIsNotAnOlderSourceIs(@TempDir Path root) throws Exception {
        write(root, "pom.xml", "<project/>", 100);
        write(root, "vertx-app/pom.xml", pom("testbed-shared", "compile"), 100);
        write(root, "testbed-shared/pom.xml", "<project/>", 100);
        write(root, "testbed-tests/pom.xml", "<project/>", 100);
        Path source = write(root, "vertx-app/src/main/java/App.java", "", 100);
        assertThat(StaleJarBuild.stale(root, VERTX)).as("no jar").isTrue();

        Path jar = write(root, "vertx-app/target/vertx.jar", "", 200);
        assertThat(StaleJarBuild.stale(root, VERTX)).as("jar newer than every source").isFalse();

        Files.setLastModifiedTime(source, FileTime.from(Instant.ofEpochSecond(300)));
        assertThat(StaleJarBuild.stale(root, VERTX)).as("the variant's source edited after the build").isTrue();

        Files.setLastModifiedTime(jar, FileTime.from(Instant.ofEpochSecond(400)));
        write(root, "testbed-shared/src/main/java/Shared.java", "", 500);
        assertThat(StaleJarBuild.stale(root, VERTX)).as("a module it depends on edited after the build").isTrue();

        Files.setLastModifiedTime(jar, FileTime.from(Instant.ofEpochSecond(600)));
        write(root, "jetty-app/src/main/java/Other.java", "", 700);
        write(root, "testbed-tests/src/main/java/Harness.java", "", 700);
        assertThat(StaleJarBuild.stale(root, VERTX)).as("another variant's module, a module it does not depend on").isFalse();
    }

    @Test
    void testScopedAndBuildOrderDependenciesAreNotSources(@TempDir Path root) throws Exception {
        write(root, "app/pom.xml", "<project><dependencies>" + dependency("lib", "compile") + dependency("tests", "test")
                + "<dependency><groupId>org.testbed</groupId><artifactId>order</artifactId><type>pom</type></dependency>"
                + "<dependency><groupId>io.other</groupId><artifactId>ext</artifactId></dependency>"
                + "</dependencies></project>", 0);
        write(root, "lib/pom.xml", pom("base", "runtime"), 0);
        for (String module : new String[] {"base", "tests", "order", "ext"}) {
            write(root, module + "/pom.xml", "<project/>", 0);
        }
        assertThat(ModuleDependencies.behind(root, "app")).containsExactly("app", "lib", "base");
    }

    @Test
    void everyVariantIsBuiltFromTheSharedService() {
        Path root = Path.of(System.getProperty("testbed.root", "..")).toAbsolutePath().normalize();
        assertThat(ModuleDependencies.behind(root, "vertx-app"))
                .anyMatch(module -> Files.isRegularFile(root.resolve(module).resolve("src/main/java/org/testbed/service/ItemService.java")));
    }

    private static String pom(String dependsOn, String scope) {
        return "<project><dependencies>" + dependency(dependsOn, scope) + "</dependencies></project>";
    }

    private static String dependency(String artifact, String scope) {
        return "<dependency><groupId>org.testbed</groupId><artifactId>" + artifact + "</artifactId><scope>" + scope
                + "</scope></dependency>";
    }

    private static Path write(Path root, String file, String content, long epochSecond) throws Exception {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, content);
        Files.setLastModifiedTime(path, FileTime.from(Instant.ofEpochSecond(epochSecond)));
        return path;
    }
}
