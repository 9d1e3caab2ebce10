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
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a run measured, as a fingerprint of the files its jars are built from: the root pom,
 * variants.conf, and the pom and {@code src/main} of each module named and of every sibling module
 * it depends on ({@link ModuleGraph#sourcesOf}, the same files {@link StaleJars} weighs). Computed from the contents, not the jars:
 * Maven writes a new jar for the same sources with new timestamps inside, and {@code run --resume}
 * must tell "the same build" from "a build whose code changed", not "a jar built again".
 */
public final class SourceFingerprint {
    private static final String PREFIX = "sha256:";

    private SourceFingerprint() {
    }

    /** {@code sha256:} and the first 16 hex digits of the hash over {@code modules}' sources, in a fixed order. */
    public static String of(Path root, Collection<String> modules) {
        Set<Path> files = new TreeSet<>();
        for (Path source : ModuleGraph.read(root).sourcesOf(modules)) {
            files.addAll(filesUnder(source));
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

    /** {@code source} itself when it is a file, every file below it when a folder, nothing when it does not exist. */
    private static Set<Path> filesUnder(Path source) {
        Set<Path> files = new TreeSet<>();
        if (Files.isRegularFile(source)) {
            files.add(source);
        }
        if (!Files.isDirectory(source)) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(source)) {
            walk.filter(Files::isRegularFile).forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + source + " for the build's fingerprint", e);
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
