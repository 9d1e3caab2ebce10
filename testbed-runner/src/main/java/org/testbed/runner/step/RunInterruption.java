package org.testbed.runner.step;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

/**
 * The one line a run stopped before its end (Ctrl-C, SIGTERM from a CI job's timeout, an error that
 * ends the JVM) prints on its way out: what the run folder kept and how to go on. The tables are
 * whole after every window ({@link RunRecorder}), so what it names is there to be read.
 */
final class RunInterruption {
    private final AtomicBoolean finished = new AtomicBoolean();

    private RunInterruption() {
    }

    /**
     * Installs the hook for the rest of this JVM's life.
     *
     * @param steps the steps with a row so far
     * @param windows the windows recorded so far
     */
    static RunInterruption onExit(PrintStream console, Path out, List<String> commandLine, IntSupplier steps,
                                  IntSupplier windows) {
        RunInterruption interruption = new RunInterruption();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!interruption.finished.get()) {
                String line;
                try {
                    line = line(out, commandLine, steps.getAsInt(), windows.getAsInt());
                } catch (RuntimeException countedWhileRecording) {
                    // The run's thread was adding a window as the signal came: the folder is whole, its count unknown here.
                    line = "stopped: what was measured is kept in " + out + "; its report: ./testbed report " + out;
                }
                console.println(line);
                console.flush();
            }
        }, "run-interrupted"));
        return interruption;
    }

    /** The run got to its end: nothing to say on the way out. */
    void finished() {
        finished.set(true);
    }

    static String line(Path out, List<String> commandLine, int steps, int windows) {
        String again = "./testbed run " + withoutFolder(commandLine).stream().map(RunInterruption::quoted)
                .collect(Collectors.joining(" "));
        if (steps == 0) {
            return String.format(Locale.ROOT, "stopped before any window was measured: nothing kept in %s; to start again: %s",
                    out, again.strip());
        }
        return String.format(Locale.ROOT, "stopped: %d step(s) kept in %s (%d window(s); results.csv, steps.csv and samples.csv"
                + " are whole); their report: ./testbed report %s; to measure the rest: ./testbed run --resume %s (or it all"
                + " again in a new folder: %s)", steps, out, windows, out, out, again.strip());
    }

    /**
     * The run's options without its folder and id (a run folder holds one run, so a new run takes new
     * ones), the command's name and the repository ({@code ./testbed} gives it).
     */
    static List<String> withoutFolder(List<String> commandLine) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < commandLine.size(); i++) {
            String arg = commandLine.get(i);
            if (arg.equals("run") && kept.isEmpty()) {
                continue; // the command's name, after the repository's --root where ./testbed puts that first
            }
            if (List.of("--out", "--run-id", "--root").contains(arg)) {
                i++;
            } else if (!arg.startsWith("--out=") && !arg.startsWith("--run-id=") && !arg.startsWith("--root=") && !arg.isBlank()) {
                kept.add(arg);
            }
        }
        return kept;
    }

    private static String quoted(String arg) {
        return arg.matches("[A-Za-z0-9_@%+=:,./-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }
}
