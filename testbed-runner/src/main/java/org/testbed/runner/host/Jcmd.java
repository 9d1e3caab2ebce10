package org.testbed.runner.host;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDK's {@code jcmd} against the server's JVM, wherever it runs: the words after
 * {@code jcmd PID} in, its output out, an {@link IOException} with what it said when it failed.
 */
@FunctionalInterface
interface Jcmd {

    String run(List<String> command) throws IOException;

    /** Starts recording {@code name} with {@code settings} ({@code settings=default}, event settings...). */
    default void startRecording(String name, List<String> settings) throws IOException {
        List<String> words = new ArrayList<>(List.of("JFR.start", "name=" + name));
        words.addAll(settings);
        String said = run(words);
        if (!said.contains("Started recording")) {
            throw new IOException("JFR.start did not start a recording: " + said.strip().replaceAll("\\s*\\R\\s*", "; "));
        }
    }

    /** Stops recording {@code name}, its file written by the JVM at {@code file} (on its machine). */
    default void stopRecording(String name, String file) throws IOException {
        run(List.of("JFR.stop", "name=" + name, "filename=" + file));
    }
}
