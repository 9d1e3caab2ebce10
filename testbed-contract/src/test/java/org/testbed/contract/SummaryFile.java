package org.testbed.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * A summary file that several test JVMs of one build append to: Failsafe runs the suites that
 * start only their own processes in two JVMs at once ({@link ParallelSafe}). The file holds one
 * build's lines, so the first line a build writes empties what an earlier build left; the build is
 * named by the {@code testbed.build} property (Maven's build timestamp, the same in every fork),
 * or, run from an IDE without it, by this JVM. A lock file serialises the forks' check-and-append.
 */
final class SummaryFile {
    private static final String BUILD = System.getProperty("testbed.build", "").isBlank()
            ? "jvm-" + ProcessHandle.current().pid() + "-" + Instant.now()
            : System.getProperty("testbed.build");

    private final Path file;
    private final Path buildMarker;
    private final Path lock;

    SummaryFile(Path file) {
        this.file = file;
        this.buildMarker = file.resolveSibling(file.getFileName() + ".build");
        this.lock = file.resolveSibling(file.getFileName() + ".lock");
    }

    Path path() {
        return file;
    }

    void append(String line) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock held = channel.lock()) {
                if (!Files.isRegularFile(buildMarker) || !Files.readString(buildMarker).equals(BUILD)) {
                    Files.deleteIfExists(file); // this build's lines only, not every build's since the last clean
                    Files.writeString(buildMarker, BUILD, StandardCharsets.UTF_8);
                }
                Files.writeString(file, line + System.lineSeparator(), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
