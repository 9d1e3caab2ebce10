package org.testbed.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.testbed.runner.fuzz.FuzzOutput;
import org.testbed.runner.fuzz.FuzzTargets;
import org.testbed.runner.fuzz.FuzzTargets.Target;
import org.testbed.runner.step.Levels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "fuzz", mixinStandardHelpOptions = true, customSynopsis = "./testbed fuzz [--duration TIME] [--target NAME]... [--list]",
        header = {"Fuzz the parsers that read outside input (request bodies, ETags, HTTP responses, gzip, run-folder"
                + " files, option values) with Jazzer, coverage-guided: every @FuzzTest of the repository in turn, each"
                + " for --duration, in its own Maven build (./mvnw -pl MODULE -am test -Dtest=CLASS#METHOD with"
                + " JAZZER_FUZZ=1). Prints, per target, the inputs run, the time and the crashes, with where each"
                + " crashing input was written: into the inputs directory that the normal build replays, so that a"
                + " crash found is a failing test until it is fixed. Exits 1 when a target crashed or could not be fuzzed."},
        description = {"The normal build (./mvnw test, CI) runs every @FuzzTest in regression mode instead: each kept"
                + " input of src/test/resources/<package>/<Class>Inputs/<method>/ once, plus an empty one."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:Every target was fuzzed for its time without a crash",
                "1:A target crashed (an exception outside its parser's contract, a failed property, a hang or an"
                        + " out-of-memory input) or its build failed",
                Main.EXIT_2})
final class FuzzCommand implements Callable<Integer> {
    /** What a target's Maven build may take besides the fuzzing itself (compiling its modules) before it is called hung. */
    static final Duration BUILD_ALLOWANCE = Duration.ofMinutes(20);

    @ParentCommand
    Main main;

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "1m",
            description = "How long to fuzz each target, e.g. 30s, 5m (default: ${DEFAULT-VALUE}). A target's build"
                    + " that runs longer than this plus 20 minutes is stopped and counted as a hang")
    String duration = "1m";

    @Option(names = "--target", paramLabel = "NAME",
            description = "Only the targets whose name (MODULE:CLASS#METHOD, see --list) contains NAME, e.g."
                    + " ItemCodecFuzzTest or HttpResponseParserFuzzTest#responseInAnyChunking (repeatable; default: all)")
    List<String> targets = new ArrayList<>();

    @Option(names = "--list", description = "List the fuzz targets, each with its inputs directory, and exit")
    boolean list;

    @Override
    public Integer call() throws IOException {
        Path root = main.root();
        List<Target> chosen = FuzzTargets.select(FuzzTargets.scan(root), targets);
        if (list) {
            for (Target t : chosen) {
                System.out.println(t.name() + "  " + root.relativize(t.inputsDirectory(root)));
            }
            return 0;
        }
        long seconds = seconds(duration);
        System.out.println("Fuzzing " + chosen.size() + " target(s), " + seconds + " s each.");
        List<String> summary = new ArrayList<>();
        boolean failed = false;
        for (Target t : chosen) {
            Result r = fuzz(root, t, seconds);
            failed |= !r.ok();
            String line = r.describe(root);
            System.out.println(line);
            summary.add(line);
        }
        System.out.println();
        System.out.println("Fuzzing, per target (executions, time, crashes):");
        summary.forEach(System.out::println);
        return failed ? Main.EXIT_FAILED : 0;
    }

    /** {@code --duration} in whole seconds, at least 1. */
    static long seconds(String text) {
        Duration d = Levels.duration(text);
        if (d.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("--duration must be at least 1s, not '" + text + "'");
        }
        return (d.toMillis() + 999) / 1000;
    }

    /** The Maven command that fuzzes {@code t} for {@code seconds}; run with JAZZER_FUZZ=1. */
    static List<String> command(Path root, Target t, long seconds) {
        return List.of(root.resolve("mvnw").toString(), "-B", "-ntp", "-pl", t.module(), "-am", "test",
                "-Dtest=" + t.surefireTest(), "-Dsurefire.failIfNoSpecifiedTests=false",
                // libFuzzer's arguments, as Jazzer's own launcher hands them to a @FuzzTest (the JUnit configuration
                // parameters jazzer.internal.arg.N; Jazzer 0.24.0 has no public setting for the time): the last
                // -max_total_time given wins over @FuzzTest's maxDuration.
                "-Djazzer.internal.arg.0=fuzz", "-Djazzer.internal.arg.1=-max_total_time=" + seconds,
                // The class's @Timeout bounds one input: Jazzer passes it to libFuzzer as -timeout. JUnit's own timeout
                // would also cut the one invocation that runs the whole fuzzing session, so it is off here.
                "-Djunit.jupiter.execution.timeout.mode=disabled");
    }

    /** One target's outcome. */
    record Result(Target target, FuzzOutput output, int exitStatus, boolean hung, Path log) {
        boolean ok() {
            return !hung && exitStatus == 0 && output.fuzzed() && output.crashes() == 0 && !output.testsFailed();
        }

        String describe(Path root) {
            String runs = output.executions().map(n -> String.format(Locale.ROOT, "%,d executions", n)).orElse("no fuzzing run");
            String time = output.seconds().map(s -> " in " + s + " s").orElse("");
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-62s %s%s, %d crash%s", target.name(), runs, time,
                    output.crashes(), output.crashes() == 1 ? "" : "es"));
            for (String finding : output.findings()) {
                line.append(System.lineSeparator()).append("      found: ").append(finding);
            }
            for (String input : output.inputsWritten()) {
                Path p = Path.of(input);
                line.append(System.lineSeparator()).append("      input written to ")
                        .append(p.isAbsolute() && p.startsWith(root) ? root.relativize(p) : p);
            }
            if (hung) {
                line.append(System.lineSeparator()).append("      stopped: the build ran past its time (a hang)");
            } else if (!output.fuzzed() || (output.crashes() == 0 && exitStatus != 0)) {
                line.append(System.lineSeparator()).append("      the build failed (exit status ").append(exitStatus).append(")");
            }
            line.append(System.lineSeparator()).append("      log: ").append(root.relativize(log));
            return line.toString();
        }
    }

    private static Result fuzz(Path root, Target t, long seconds) throws IOException {
        // Jazzer writes a crashing input into the target's inputs directory only when it exists.
        Files.createDirectories(t.inputsDirectory(root));
        Path log = root.resolve(t.module()).resolve("target").resolve("fuzz").resolve(t.simpleName() + "#" + t.method() + ".log");
        Files.createDirectories(log.getParent());
        System.out.println("fuzzing " + t.name() + " for " + seconds + " s (log: " + root.relativize(log) + ")");
        ProcessBuilder builder = new ProcessBuilder(command(root, t, seconds)).directory(root.toFile()).redirectErrorStream(true);
        builder.environment().put("JAZZER_FUZZ", "1");
        builder.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
        FuzzOutput output = new FuzzOutput();
        Process process = builder.start();
        Thread reader = new Thread(() -> copy(process, output, log), "fuzz-output");
        reader.setDaemon(true);
        reader.start();
        boolean hung;
        int status;
        try {
            hung = !process.waitFor(BUILD_ALLOWANCE.toSeconds() + seconds, TimeUnit.SECONDS);
            if (hung) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor();
            }
            status = process.exitValue();
            reader.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while fuzzing " + t.name(), e);
        }
        return new Result(t, output, status, hung, log);
    }

    private static void copy(Process process, FuzzOutput output, Path log) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.println(line);
                synchronized (output) {
                    output.line(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
