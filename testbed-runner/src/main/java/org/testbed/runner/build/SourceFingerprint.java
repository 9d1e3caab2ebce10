package org.testbed.runner.build;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a run measured, as a fingerprint of the files its jars are built from: the root pom,
 * variants.conf, and the pom and {@code src/main} of each module named and of every sibling module
 * it depends on (the same files {@link StaleJars} weighs). Computed from the contents, not the jars:
 * Maven writes a new jar for the same sources with new timestamps inside, and {@code run --resume}
 * must tell "the same build" from "a build whose code changed", not "a jar built again".
 */
public final class SourceFingerprint {
    private static final String PREFIX = "sha256:";

    private SourceFingerprint() {
    }

    /** {@code sha256:} and the first 16 hex digits of the hash over {@code modules}' sources, in a fixed order. */
    public static String of(Path root, Collection<String> modules) {
        ModuleGraph graph = ModuleGraph.read(root);
        Set<String> closure = new TreeSet<>();
        for (String module : modules) {
            closure.addAll(graph.closure(module));
        }
        Set<Path> files = new TreeSet<>();
        for (Path file : List.of(root.resolve("pom.xml"), root.resolve("variants.conf"))) {
            if (Files.isRegularFile(file)) {
                files.add(file);
            }
        }
        for (String module : closure) {
            Path pom = root.resolve(module).resolve("pom.xml");
            if (Files.isRegularFile(pom)) {
                files.add(pom);
            }
            files.addAll(filesUnder(root.resolve(module).resolve("src").resolve("main")));
        }
        MessageDigest sha = sha256();
        for (Path file : files) {
            // The path as well as the content: a file moved to another package is another build.
            sha.update(root.relativize(file).toString().replace('\\', '/').getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            try {
                sha.update(Files.readAllBytes(file));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + " for the build's fingerprint", e);
            }
            sha.update((byte) 0);
        }
        return PREFIX + HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    }

    private static Set<Path> filesUnder(Path dir) {
        Set<Path> files = new TreeSet<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + " for the build's fingerprint", e);
        }
        return files;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
