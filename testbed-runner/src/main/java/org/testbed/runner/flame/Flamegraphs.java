package org.testbed.runner.flame;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import org.testbed.runner.env.Environment;

/**
 * CPU flame graphs per step with async-profiler (Maven Central's {@code tools.profiler:async-profiler},
 * whose jar carries {@code linux-x64} and {@code linux-arm64} libraries). The library is extracted
 * once per run and loaded into the variant's JVM with the JDK attach API — what {@code asprof} and
 * jattach do — with {@code start} before the step and {@code stop,file=...html} after it.
 *
 * <p>Sampling event: {@code cpu} (perf_events) when the kernel lets this user open perf events
 * ({@code /proc/sys/kernel/perf_event_paranoid} &lt;= 2 and no seccomp filter), else {@code itimer}
 * (setitimer, no kernel frames), which works in containers. The choice is made once per run by
 * trying {@code cpu} and is recorded in environment.json.
 */
public final class Flamegraphs {
    private final Path library;
    private String event;
    private String note = "";

    private Flamegraphs(Path library) {
        this.library = library;
    }

    /** Extracts the library for this machine into {@code dir}. */
    public static Flamegraphs prepare(Path dir) throws IOException {
        String platform = switch (Environment.arch()) {
            case "x86_64" -> "linux-x64";
            case "aarch64" -> "linux-arm64";
            default -> throw new IOException("async-profiler has no library for " + Environment.arch());
        };
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            throw new IOException("flame graphs need Linux (async-profiler's libraries in the jar are for Linux here)");
        }
        String resource = "/" + platform + "/libasyncProfiler.so";
        Files.createDirectories(dir);
        Path target = dir.resolve("libasyncProfiler.so");
        try (InputStream in = Flamegraphs.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is missing from the runner jar (tools.profiler:async-profiler)");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return new Flamegraphs(target);
    }

    /** JVM flags for accurate Java frames (and, on JDK 21+, quiet dynamic agent loading). */
    public static List<String> jvmArgs(int feature) {
        return feature >= 21
                ? List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints", "-XX:+EnableDynamicAgentLoading")
                : List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints");
    }

    /** Starts sampling in JVM {@code pid}; picks the event on first use. */
    public void start(long pid) throws IOException {
        if (event == null) {
            try {
                command(pid, "start,event=cpu,interval=1ms");
                event = "cpu";
                return;
            } catch (IOException e) {
                note = "event=cpu (perf_events) refused: " + e.getMessage() + "; using itimer";
                event = "itimer";
            }
        }
        command(pid, "start,event=" + event + ",interval=1ms");
    }

    /** Stops sampling and writes the flame graph (HTML) to {@code file}. */
    public void stop(long pid, Path file) throws IOException {
        command(pid, "stop,file=" + file.toAbsolutePath() + ",title=" + file.getFileName());
    }

    /** The sampling event in use ({@code cpu} or {@code itimer}), and why, for environment.json. */
    public String describe() {
        return "async-profiler 4.6, event=" + (event == null ? "(not started)" : event)
                + (note.isEmpty() ? "" : " — " + note);
    }

    private void command(long pid, String arguments) throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to " + pid + ": " + e.getMessage(), e);
        }
        try {
            vm.loadAgentPath(library.toString(), arguments);
        } catch (AgentLoadException | AgentInitializationException e) {
            throw new IOException("async-profiler '" + arguments + "' failed in " + pid + ": " + e.getMessage(), e);
        } finally {
            vm.detach();
        }
    }
}
