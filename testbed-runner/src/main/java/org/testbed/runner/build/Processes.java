package org.testbed.runner.build;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Runs a tool of the command line (Maven, JMH, a smoke script) to its end and returns its exit status. */
public final class Processes {
    private Processes() {
    }

    /**
     * Starts {@code builder} and waits for it. Without JAVA_HOME, sets it to the running JDK, so that
     * {@code ./mvnw} and the scripts build and run with the JDK the command line was started on.
     */
    public static int run(ProcessBuilder builder) {
        builder.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", builder.command()) + ": " + e.getMessage(), e);
        }
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + builder.command().get(0), e);
        }
    }
}
