package org.testbed.runner.build;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Decides whether a module's jar is stale (missing, or older than any file it is built from: the
 * root pom, variants.conf, and the pom and {@code src/main} of the module and of every sibling module
 * it depends on) and builds the stale ones in one Maven call.
 */
public final class StaleJars {
    private final ModuleGraph graph;
    private final PrintStream console;

    public StaleJars(ModuleGraph graph, PrintStream console) {
        this.graph = graph;
        this.console = console;
    }

    public static StaleJars in(Path root) {
        return new StaleJars(ModuleGraph.read(root), System.err);
    }

    public boolean isStale(ModuleJar jar) {
        Path file = graph.root().resolve(jar.jar());
        if (!Files.isRegularFile(file)) {
            return true;
        }
        FileTime built = modified(file);
        return graph.sourcesOf(List.of(jar.module())).stream().anyMatch(source -> anyNewer(source, built));
    }

    /** The modules whose jars are stale, each once, in the order given. */
    public List<String> staleModules(Collection<ModuleJar> jars) {
        Set<String> modules = new LinkedHashSet<>();
        for (ModuleJar jar : jars) {
            if (!modules.contains(jar.module()) && isStale(jar)) {
                modules.add(jar.module());
            }
        }
        return List.copyOf(modules);
    }

    /** Builds the stale jars among {@code jars} with one {@code ./mvnw -pl a,b -am package}; does nothing when all are fresh. */
    public void buildStale(Collection<ModuleJar> jars) {
        List<String> modules = staleModules(jars);
        if (modules.isEmpty()) {
            return;
        }
        console.println("testbed: building " + String.join(" ", modules) + " (jars missing or older than their sources)...");
        List<String> command = List.of(graph.root().resolve("mvnw").toString(), "-q", "-B", "-pl",
                String.join(",", modules), "-am", "package", "-DskipTests");
        int status = Processes.run(new ProcessBuilder(command).directory(graph.root().toFile()).inheritIO());
        if (status != 0) {
            throw new IllegalStateException("the build of " + String.join(" ", modules) + " failed (status " + status + ")");
        }
        FileTime now = FileTime.from(Instant.now());
        for (ModuleJar jar : jars) {
            if (!modules.contains(jar.module())) {
                continue;
            }
            Path file = graph.root().resolve(jar.jar());
            if (!Files.isRegularFile(file)) {
                throw new IllegalStateException("the build of " + jar.module() + " did not produce " + jar.jar());
            }
            // Maven leaves a jar whose content did not change untouched: mark it fresh, or every call rebuilds.
            try {
                Files.setLastModifiedTime(file, now);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static boolean anyNewer(Path source, FileTime built) {
        if (Files.isRegularFile(source)) {
            return modified(source).compareTo(built) > 0;
        }
        if (!Files.isDirectory(source)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(source)) {
            return files.filter(Files::isRegularFile).anyMatch(file -> modified(file).compareTo(built) > 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
