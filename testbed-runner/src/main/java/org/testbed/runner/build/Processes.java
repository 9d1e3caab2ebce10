package org.testbed.runner.build;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/** Runs a tool of the command line (Maven, JMH, a smoke script) to its end and returns its exit status. */
public final class Processes {
    private Processes() {
    }

    /**
     * Starts {@code builder} and waits for it. Without JAVA_HOME, sets it to the running JDK, so that
     * {@code ./mvnw} and the scripts build and run with the JDK the command line was started on.
     */
    public static int run(ProcessBuilder builder) {
        return run(builder, null);
    }

    /**
     * As {@link #run(ProcessBuilder)}, with the tool's output (its standard output and error, merged)
     * copied to this one line by line and each line given to {@code eachLine} as well; its input is
     * this one's. {@code eachLine} null: the tool writes to this process's output itself.
     */
    public static int run(ProcessBuilder builder, Consumer<String> eachLine) {
        if (eachLine != null) {
            builder.redirectInput(ProcessBuilder.Redirect.INHERIT).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.PIPE);
        }
        builder.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", builder.command()) + ": " + e.getMessage(), e);
        }
        try {
            if (eachLine != null) {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        System.out.println(line);
                        eachLine.accept(line);
                    }
                } catch (IOException e) {
                    System.out.println("(the output of " + builder.command().get(0) + " could not be read: " + e.getMessage() + ")");
                }
                System.out.flush();
            }
            return process.waitFor();
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + builder.command().get(0), e);
        }
    }
}
