package org.testbed.runner.counters;

import org.testbed.runfolder.counters.PerfEvent;
import org.testbed.runfolder.counters.CounterReading;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.testbed.runfolder.environment.CounterSetup;

/**
 * {@code perf stat} attached to the server process for one step's window: started before the load,
 * stopped with SIGINT after it (perf prints its counts on SIGINT; on SIGTERM it prints nothing).
 * Counting never fails a run: whatever perf cannot count comes back as unavailable, with the reason.
 */
public final class PerfStat {
    static final String NOT_INSTALLED = "perf is not installed (Debian: apt-get install linux-perf)";
    private static final long STOP_TIMEOUT_S = 10;
    private static final long ATTACH_TIMEOUT_NS = 5_000_000_000L;

    private final Process process;
    private final Path output;
    private final Path errors;
    private final CounterReading failed;

    private PerfStat(Process process, Path output, Path errors, CounterReading failed) {
        this.process = process;
        this.output = output;
        this.errors = errors;
        this.failed = failed;
    }

    /** The perf launcher on the PATH, or null. */
    public static Path find() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "perf");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Starts counting every thread of {@code pid}; perf writes into {@code output} (and its errors beside it). */
    public static PerfStat attach(long pid, Path output) throws IOException {
        Path perf = find();
        if (perf == null) {
            return new PerfStat(null, output, null, CounterReading.unavailable(NOT_INSTALLED));
        }
        Files.createDirectories(output.toAbsolutePath().getParent());
        Path errors = output.resolveSibling(output.getFileName() + ".err");
        Process process = new ProcessBuilder(perf.toString(), "stat", "-x", ",", "-e", PerfEvent.eventList(),
                "-p", Long.toString(pid), "-o", output.toString())
                .redirectErrorStream(false)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(errors.toFile())
                .start();
        awaitAttached(process, output);
        return new PerfStat(process, output, errors, null);
    }

    /**
     * Waits until perf has attached, so that the counts cover the whole window that follows: perf
     * writes its "# started on" line into the output file once its counters are open (starting
     * perf itself takes a good part of a second on a busy machine). Bounded; a perf that fails
     * says why at {@link #stop()}.
     */
    private static void awaitAttached(Process process, Path output) throws IOException {
        long deadline = System.nanoTime() + ATTACH_TIMEOUT_NS;
        while (System.nanoTime() < deadline && process.isAlive()
                && !(Files.isRegularFile(output) && Files.size(output) > 0)) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops counting and returns what perf counted; never throws for what perf could not do. */
    public CounterReading stop() throws InterruptedException {
        if (failed != null) {
            return failed;
        }
        try {
            if (process.isAlive()) {
                new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor(5, TimeUnit.SECONDS);
            }
            if (!process.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return CounterReading.unavailable("perf stat did not stop within " + STOP_TIMEOUT_S + " s of SIGINT");
            }
            if (Files.isRegularFile(errors) && Files.size(errors) == 0) {
                Files.delete(errors);
            }
            String counted = Files.isRegularFile(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
            if (counted.lines().noneMatch(l -> !l.isBlank() && !l.startsWith("#"))) {
                return CounterReading.unavailable("perf stat failed: " + firstLine(errors) + " (" + paranoia() + ")");
            }
            return CounterReading.parse(counted, notSupportedReason());
        } catch (IOException e) {
            return CounterReading.unavailable("perf stat failed: " + e.getMessage());
        }
    }

    /** Why perf says {@code <not supported>}: usually a VM that exposes no hardware counters. */
    static String notSupportedReason() {
        return hasHardwarePmu()
                ? "not supported by this CPU or kernel"
                : "not supported: no hardware PMU is exposed to this machine (a VM without a virtual PMU)";
    }

    /** Whether the kernel registered a CPU performance monitoring unit (x86 "cpu", Arm "armv8_pmuv3…"). */
    static boolean hasHardwarePmu() {
        Path devices = Path.of("/sys/bus/event_source/devices");
        if (Files.isDirectory(devices.resolve("cpu")) || Files.isDirectory(devices.resolve("cpu_core"))) {
            return true;
        }
        try (var list = Files.list(devices)) {
            return list.anyMatch(p -> p.getFileName().toString().startsWith("armv8_pmu"));
        } catch (IOException e) {
            return false;
        }
    }

    static String paranoia() {
        try {
            return "kernel.perf_event_paranoid=" + Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).trim();
        } catch (IOException e) {
            return "kernel.perf_event_paranoid unknown";
        }
    }

    /** What this machine allows, for environment.json. */
    public static CounterSetup describe() {
        Path perf = find();
        return new CounterSetup(perf == null ? NOT_INSTALLED : perf.toString(), paranoia(), hasHardwarePmu(),
                List.of(PerfEvent.eventList().split(",")), Optional.empty());
    }

    private static String firstLine(Path file) throws IOException {
        if (file == null || !Files.isRegularFile(file)) {
            return "no output";
        }
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).findFirst()
                .map(String::strip).orElse("no output");
    }
}
