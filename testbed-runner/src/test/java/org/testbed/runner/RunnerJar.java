package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The packaged runner, run as a user runs it: {@code java -jar testbed-runner.jar <command> ...}, bounded in time. */
final class RunnerJar {
    static final Path ROOT = Path.of(System.getProperty("testbed.root", "..")).toAbsolutePath().normalize();
    static final Path JAR = Path.of(System.getProperty("testbed.runner.jar", "target/testbed-runner.jar")).toAbsolutePath();

    private RunnerJar() {
    }

    /** Runs the command, prints its output, asserts it exited 0 within {@code limitSeconds}, and returns the output. */
    static String run(long limitSeconds, String... args) throws IOException, InterruptedException {
        Outcome outcome = call(limitSeconds, args);
        System.out.println(outcome.output());
        assertThat(outcome.exitCode()).as("exit status of runner " + String.join(" ", args) + "\n" + outcome.output()).isZero();
        return outcome.output();
    }

    /** What one command gave: its exit status and its output, both streams in order. */
    record Outcome(int exitCode, String output) {
    }

    /** Runs the command within {@code limitSeconds} (else fails) and returns its exit status and output, whatever they are. */
    static Outcome call(long limitSeconds, String... args) throws IOException, InterruptedException {
        return call(limitSeconds, Map.of(), args);
    }

    /** The same, with {@code environment} added to this JVM's environment. */
    static Outcome call(long limitSeconds, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        assertThat(JAR).as("the runner jar (built in the package phase)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString()));
        command.addAll(Arrays.asList(args));
        Path log = Files.createTempFile("runner", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            Process p = builder.start();
            if (!p.waitFor(limitSeconds, TimeUnit.SECONDS)) {
                // Its memcached and servers first: killed by SIGKILL, the runner cannot stop them itself.
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IOException("runner " + args[0] + " did not finish in " + limitSeconds + " s:\n" + Files.readString(log));
            }
            return new Outcome(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }
}
