package org.testbed.runner.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a small repository in a temporary folder: a library, an app built from it, a tool that only
 * tests against the app, and an unrelated module. Times are set explicitly, an hour apart, so no
 * result depends on the file system's timestamp resolution.
 */
class StaleJarsTest {
    private static final Instant SOURCES = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant BUILT = SOURCES.plusSeconds(3600);
    private static final Instant EDITED = BUILT.plusSeconds(3600);
    private static final ModuleJar APP = new ModuleJar("app", "app/target/app.jar");
    private static final ModuleJar LIB = new ModuleJar("lib", "lib/target/lib.jar");
    private static final ModuleJar OTHER = new ModuleJar("other", "other/target/other.jar");

    @TempDir
    Path root;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private StaleJars jars;

    @BeforeEach
    void repository() throws IOException {
        write("pom.xml", """
                <project><artifactId>parent</artifactId>
                  <modules><module>lib</module><module>app</module><module>tool</module><module>other</module></modules>
                  <dependencyManagement><dependencies>
                    <dependency><artifactId>other</artifactId></dependency>
                  </dependencies></dependencyManagement>
                </project>""");
        write("variants.conf", "# name module jar mode min_jdk description\n");
        write("lib/pom.xml", module("lib-artifact", ""));
        write("app/pom.xml", module("app", "<dependency><artifactId>lib-artifact</artifactId></dependency>"
                + "<dependency><artifactId>picocli</artifactId></dependency>"));
        write("tool/pom.xml", module("tool", "<dependency><artifactId>app</artifactId><scope>test</scope></dependency>"));
        write("other/pom.xml", module("other", ""));
        for (String name : List.of("lib", "app", "tool", "other")) {
            write(name + "/src/main/java/" + name + "/Main.java", "class Main {}");
            write(name + "/src/test/java/" + name + "/MainTest.java", "class MainTest {}");
        }
        try (var files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(file, FileTime.from(SOURCES));
            }
        }
        jars = new StaleJars(ModuleGraph.read(root), new PrintStream(console, true, StandardCharsets.UTF_8));
    }

    @Test
    void theDependenciesComeFromThePomsParentAndNonTestDependenciesOnly() {
        ModuleGraph graph = ModuleGraph.read(root);
        assertThat(graph.closure("app")).containsExactly("app", "lib");
        assertThat(graph.closure("tool")).containsExactly("tool");
        assertThatThrownBy(() -> graph.closure("nope")).hasMessageContaining("no module 'nope'")
                .hasMessageContaining("[lib, app, tool, other]");
    }

    @Test
    void aMissingJarIsStale() {
        assertThat(jars.isStale(APP)).isTrue();
    }

    @Test
    void aJarNewerThanEverythingItIsBuiltFromIsFresh() throws IOException {
        built(APP, LIB, OTHER);
        assertThat(jars.staleModules(List.of(APP, LIB, OTHER))).isEmpty();
    }

    @Test
    void aChangeInADependencyModuleMakesTheDependentStaleButNotAnUnrelatedModule() throws IOException {
        built(APP, LIB, OTHER);
        touch("lib/src/main/java/lib/Main.java");
        assertThat(jars.staleModules(List.of(APP, LIB, OTHER))).containsExactly("app", "lib");
    }

    @Test
    void aDependencysPomCountsButItsTestSourcesDoNot() throws IOException {
        built(APP);
        touch("lib/src/test/java/lib/MainTest.java");
        assertThat(jars.isStale(APP)).isFalse();
        touch("lib/pom.xml");
        assertThat(jars.isStale(APP)).isTrue();
    }

    @Test
    void theRootPomAndVariantsConfMakeEveryJarStale() throws IOException {
        built(APP, OTHER);
        touch("variants.conf");
        assertThat(jars.staleModules(List.of(APP, OTHER))).containsExactly("app", "other");
        Files.setLastModifiedTime(root.resolve("variants.conf"), FileTime.from(SOURCES));
        touch("pom.xml");
        assertThat(jars.staleModules(List.of(APP, OTHER))).containsExactly("app", "other");
    }

    @Test
    void aTestScopedDependencyDoesNotMakeTheJarStale() throws IOException {
        ModuleJar tool = new ModuleJar("tool", "tool/target/tool.jar");
        built(tool);
        touch("app/src/main/java/app/Main.java");
        assertThat(jars.isStale(tool)).isFalse();
    }

    @Test
    void theStaleModulesAreBuiltInOneMavenCallEachOnceAndTheirJarsMarkedFresh() throws IOException {
        Path calls = root.resolve("mvnw-calls.txt");
        // A stand-in for the Maven wrapper: records its arguments, "builds" what a real build would
        // leave untouched (the jars' content did not change), and succeeds.
        write("mvnw", "#!/bin/sh\necho \"$@\" >> '" + calls + "'\n");
        Files.setPosixFilePermissions(root.resolve("mvnw"), PosixFilePermissions.fromString("rwxr-xr-x"));
        built(APP, LIB, OTHER);
        touch("lib/src/main/java/lib/Main.java");
        ModuleJar appAgain = new ModuleJar("app", "app/target/app.jar");

        jars.buildStale(List.of(APP, appAgain, LIB, OTHER));

        assertThat(Files.readAllLines(calls)).containsExactly("-q -B -pl app,lib -am package -DskipTests");
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("building app lib");
        assertThat(jars.staleModules(List.of(APP, LIB, OTHER))).isEmpty();

        jars.buildStale(List.of(APP, LIB, OTHER));
        assertThat(Files.readAllLines(calls)).as("nothing stale: no second call").hasSize(1);
    }

    @Test
    void aFailedBuildSaysWhichModules() throws IOException {
        write("mvnw", "#!/bin/sh\nexit 3\n");
        Files.setPosixFilePermissions(root.resolve("mvnw"), PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThatThrownBy(() -> jars.buildStale(List.of(APP)))
                .isInstanceOf(IllegalStateException.class).hasMessage("the build of app failed (status 3)");
    }

    private static String module(String artifactId, String dependencies) {
        return "<project><parent><artifactId>parent</artifactId></parent><artifactId>" + artifactId
                + "</artifactId><dependencies>" + dependencies + "</dependencies></project>";
    }

    private void built(ModuleJar... built) throws IOException {
        for (ModuleJar jar : built) {
            write(jar.jar(), "jar");
            Files.setLastModifiedTime(root.resolve(jar.jar()), FileTime.from(BUILT));
        }
    }

    private void touch(String file) throws IOException {
        Files.setLastModifiedTime(root.resolve(file), FileTime.from(EDITED));
    }

    private void write(String file, String content) throws IOException {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, content);
    }
}
