package org.testbed.runner.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A recording of a server on this machine: the server's own JDK's {@code jcmd} (beside the
 * {@code java} it was started with) starts it, and stops it into the run folder, where the server's
 * JVM writes the file itself.
 */
final class LocalFlightRecording implements FlightRecording {
    /** jcmd is a JVM of its own: on a busy two-CPU machine it takes a few seconds to start. */
    private static final long LIMIT_SECONDS = 60;

    private final Jcmd jcmd;
    private final String name;

    private LocalFlightRecording(Jcmd jcmd, String name) {
        this.jcmd = jcmd;
        this.name = name;
    }

    static FlightRecording start(long pid, String name, List<String> settings) throws IOException {
        Jcmd jcmd = command -> run(pid, command);
        jcmd.startRecording(name, settings);
        return new LocalFlightRecording(jcmd, name);
    }

    @Override
    public Duration stop(Path local) throws IOException {
        Files.createDirectories(local.toAbsolutePath().getParent());
        jcmd.stopRecording(name, local.toAbsolutePath().toString());
        if (!Files.isRegularFile(local)) {
            throw new IOException("JFR.stop wrote no " + local);
        }
        return Duration.ZERO;
    }

    /** The jcmd beside the server's java launcher, else this JVM's. */
    private static Path jcmdOf(long pid) {
        Path own = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        return ProcessHandle.of(pid).flatMap(p -> p.info().command()).map(Path::of)
                .map(java -> java.resolveSibling("jcmd")).filter(Files::isExecutable).orElse(own);
    }

    private static String run(long pid, List<String> words) throws IOException {
        List<String> command = new ArrayList<>(List.of(jcmdOf(pid).toString(), Long.toString(pid)));
        command.addAll(words);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output;
            try (var in = p.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("jcmd " + pid + " " + String.join(" ", words) + " took over " + LIMIT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException("jcmd " + pid + " " + String.join(" ", words) + " failed (exit " + p.exitValue() + "): "
                        + output.strip().replaceAll("\\s*\\R\\s*", "; "));
            }
            return output;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while jcmd ran", e);
        }
    }
}
