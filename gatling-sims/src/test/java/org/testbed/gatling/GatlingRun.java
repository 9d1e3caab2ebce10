package org.testbed.gatling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;

/**
 * One simulation run in a JVM of its own, as {@code gatling:test} runs it (Gatling's own entry
 * point, {@code io.gatling.app.Gatling}, on this module's test class path), bounded in time: a run
 * still going at the limit is killed with everything it started.
 */
final class GatlingRun {
    /** Gatling's exit status when the run completed and an assertion failed. */
    static final int ASSERTIONS_FAILED = 2;

    /**
     * @param exitCode Gatling's exit status: 0 when every assertion held
     * @param runFolder the folder Gatling and the simulation wrote (simulation.log, results.csv, ...), or null
     * @param log the run's console output
     */
    record Outcome(int exitCode, Path runFolder, Path log) {
        /** The run's results.csv rows, through the runner's reader. */
        List<ResultRow> rows() throws IOException {
            if (runFolder == null || !Files.isRegularFile(runFolder.resolve(ResultsCsv.FILE))) {
                throw new IOException("the run wrote no " + ResultsCsv.FILE + "; its output: " + log);
            }
            return ResultsCsv.read(runFolder.resolve(ResultsCsv.FILE));
        }

        /** The run's operations.csv rows (each results.csv row by Gatling request name), through the runner's reader. */
        List<OperationRecord> operations() throws IOException {
            if (runFolder == null || !Files.isRegularFile(runFolder.resolve(OperationsCsv.FILE))) {
                throw new IOException("the run wrote no " + OperationsCsv.FILE + "; its output: " + log);
            }
            return OperationsCsv.TABLE.read(runFolder.resolve(OperationsCsv.FILE));
        }
    }

    private GatlingRun() {
    }

    /**
     * Runs {@code simulation} with the knobs as system properties; its results go under {@code resultsDirectory}
     * (which should be new: the run's folder is the one simulation folder found there).
     */
    static Outcome run(String simulation, Map<String, String> knobs, Path resultsDirectory, Duration limit)
            throws IOException, InterruptedException {
        Files.createDirectories(resultsDirectory);
        Path results = resultsDirectory.toAbsolutePath();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        // What gatling-maven-plugin gives the JVMs it forks: Gatling's log writer reads String internals.
        command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
        command.add("--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED");
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow");
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("-Dtestbed.gatling.results=" + results);
        knobs.forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.addAll(List.of("io.gatling.app.Gatling", "-s", "org.testbed.gatling." + simulation,
                "-rf", results.toString(), "-nr"));
        Path log = results.resolve("gatling.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(simulation + " still running after " + limit.toSeconds()
                        + " s; killed. Its output: " + log);
            }
        } finally {
            if (process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        return new Outcome(process.exitValue(), runFolder(results, simulation), log);
    }

    /** The {@code <simulation>-<timestamp>} folder Gatling made for the run. */
    private static Path runFolder(Path results, String simulation) throws IOException {
        String prefix = simulation.toLowerCase(java.util.Locale.ROOT) + "-";
        try (Stream<Path> entries = Files.list(results)) {
            return entries.filter(Files::isDirectory).filter(p -> p.getFileName().toString().startsWith(prefix))
                    .findFirst().orElse(null);
        }
    }

    /** The output's last lines, for a failure message. */
    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }
}
