package org.testbed.arm64;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The commands the arm64 runtime is built and run with: found on the PATH, run with a timeout. */
final class Commands {
    private Commands() {
    }

    /** The executable {@code command} on the PATH, if any. */
    static Optional<Path> onPath(String command) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, command))) {
                return Optional.of(Path.of(directory, command));
            }
        }
        return Optional.empty();
    }

    /** Runs {@code command} to its end within {@code timeout}: its output, or an exception quoting it. */
    static String run(List<String> command, Path directory, Duration timeout) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
        Path output = Files.createTempFile("testbed-arm64-", ".out");
        try {
            Process process = builder.redirectOutput(output.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + timeout);
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed with status " + process.exitValue() + ": " + text.strip());
            }
            return text;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
