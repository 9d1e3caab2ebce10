package org.testbed.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testbed.variant.Variant;

/**
 * The jar check {@code ./testbed} applies before it serves or deploys: the jar is stale when it is
 * missing or any file it is built from is newer (the parent pom, variants.conf, and the pom and
 * main sources of the variant's module and of every repository module it depends on, read from
 * the poms so that no list of modules is kept here); then the Maven wrapper packages that module.
 */
public final class StaleJarBuild implements JarBuild {
    private static final long BUILD_LIMIT_MINUTES = 30;

    @Override
    public void ensureCurrent(Path root, Variant variant) {
        Path jar = variant.jarIn(root);
        if (!stale(root, variant)) {
            return;
        }
        System.err.println("deploy: building " + variant.module() + " (jar missing or older than its sources)...");
        List<String> command = List.of(root.resolve("mvnw").toString(), "-q", "-B", "-pl", variant.module(), "-am",
                "package", "-DskipTests");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile()).inheritIO();
            // The wrapper needs a JDK; the one running this is one unless JAVA_HOME says otherwise.
            builder.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
            Process maven = builder.start();
            if (!maven.waitFor(BUILD_LIMIT_MINUTES, TimeUnit.MINUTES)) {
                maven.destroyForcibly();
                throw new DeployException("the build of " + variant.module() + " took more than " + BUILD_LIMIT_MINUTES + " minutes");
            }
            if (maven.exitValue() != 0) {
                throw new DeployException("the build of " + variant.module() + " failed");
            }
            // Maven leaves a jar whose content did not change untouched: mark it fresh, or every call rebuilds.
            Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            throw new DeployException("could not build " + variant.module() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeployException("interrupted while building " + variant.module());
        }
    }

    /** Missing, or older than a file it is built from. */
    static boolean stale(Path root, Variant variant) {
        Path jar = variant.jarIn(root);
        if (!Files.isRegularFile(jar)) {
            return true;
        }
        try {
            FileTime built = Files.getLastModifiedTime(jar);
            List<Path> sources = new ArrayList<>(List.of(root.resolve("pom.xml"), root.resolve("variants.conf")));
            for (String module : ModuleDependencies.behind(root, variant.module())) {
                sources.add(root.resolve(module).resolve("pom.xml"));
                sources.add(root.resolve(module).resolve("src/main"));
            }
            for (Path source : sources) {
                if (newerFile(source, built)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean newerFile(Path source, FileTime than) throws IOException {
        if (!Files.exists(source)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                if (Files.getLastModifiedTime(file).compareTo(than) > 0) {
                    return true;
                }
            }
        }
        return false;
    }
}
