package org.testbed.runner.flame;

import org.testbed.runfolder.flame.CollapsedStacks;
import org.testbed.runfolder.flame.ProfilerConverter;
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
import java.util.Optional;
import java.util.Locale;
import org.testbed.runner.env.Environment;

/**
 * CPU flame graphs per step with async-profiler (Maven Central's {@code tools.profiler:async-profiler},
 * whose jar carries {@code linux-x64} and {@code linux-arm64} libraries). The library is extracted
 * once per run and loaded into the variant's JVM with the JDK attach API — what {@code asprof} and
 * jattach do — with {@code start,jfr,file=...jfr} before the step and {@code stop} after it. The
 * recording (async-profiler's JFR) is then drawn by async-profiler's own converter
 * ({@link ProfilerConverter}): the flame graph, its collapsed stacks, the user and kernel views and
 * a heat map of the samples over the step's time.
 *
 * <p>Sampling event: {@code cpu} (perf_events) when the kernel lets this user open perf events
 * ({@code /proc/sys/kernel/perf_event_paranoid} &lt;= 2 and no seccomp filter), else {@code itimer}
 * (setitimer, no kernel frames), which works in containers. The choice is made once per run by
 * trying {@code cpu} and is recorded in environment.json.
 */
public final class Flamegraphs {
    /** What {@code --flamegraph} takes: on-CPU samples, or wall-clock samples of every thread. */
    public static final List<String> MODES = List.of("cpu", "wall");

    /**
     * A JVM to profile: here (the attach API, files written in place) or on the server's machine
     * (the profiler loaded there by {@code jcmd}, its files written there and brought back).
     */
    public interface Profiled {
        /** Loads async-profiler into the JVM with {@code arguments} ({@code start,...}, {@code stop,...}). */
        void load(String arguments) throws IOException;

        /** Where the JVM writes a file that is to end up at {@code local}. */
        String writePath(Path local);

        /** Brings the file written at {@link #writePath} to {@code local}. */
        void fetch(Path local) throws IOException;

        /** Why this JVM cannot be profiled at all, so that no step tries; empty when it can be. */
        default Optional<String> unprofilable() {
            return Optional.empty();
        }
    }

    private final Path library;
    private final String mode;
    private String event;
    private String note = "";

    private Flamegraphs(Path library, String mode) {
        this.library = library;
        this.mode = mode;
    }

    /** Extracts the library for this machine into {@code dir}; {@code mode} is one of {@link #MODES}. */
    public static Flamegraphs prepare(Path dir, String mode) throws IOException {
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("flame graph mode " + mode + ": not one of " + MODES);
        }
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            throw new IOException("flame graphs need Linux (async-profiler's libraries in the jar are for Linux here)");
        }
        return new Flamegraphs(extract(dir, Environment.arch()), mode);
    }

    /** Extracts the library for a Linux machine of {@code arch} ({@code uname -m}) into {@code dir}. */
    public static Path extract(Path dir, String arch) throws IOException {
        String platform = switch (arch) {
            case "x86_64" -> "linux-x64";
            case "aarch64" -> "linux-arm64";
            default -> throw new IOException("async-profiler has no library for " + arch);
        };
        String resource = "/" + platform + "/libasyncProfiler.so";
        Files.createDirectories(dir);
        Path target = dir.resolve(platform + "-libasyncProfiler.so");
        try (InputStream in = Flamegraphs.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is missing from the runner jar (tools.profiler:async-profiler)");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    /** JVM {@code pid} on this machine, profiled with the attach API. */
    public Profiled attached(long pid) {
        return new Profiled() {
            @Override
            public void load(String arguments) throws IOException {
                command(pid, arguments);
            }

            @Override
            public String writePath(Path local) {
                return local.toAbsolutePath().toString();
            }

            @Override
            public void fetch(Path local) {
                // written in place
            }
        };
    }

    /** JVM flags for accurate Java frames (and, on JDK 21+, quiet dynamic agent loading). */
    public static List<String> jvmArgs(int feature) {
        return feature >= 21
                ? List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints", "-XX:+EnableDynamicAgentLoading")
                : List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints");
    }

    /**
     * Starts sampling in {@code jvm}, recording into the JFR file beside the flame graph
     * {@code file} ({@link #recording}); picks the event on first use.
     */
    public void start(Profiled jvm, Path file) throws IOException {
        String output = ",jfr,file=" + jvm.writePath(recording(file));
        if (mode.equals("wall")) {
            // Wall clock: every thread sampled whether running or waiting, so queues and blocked
            // carriers show; a coarser interval, as most samples are of idle threads.
            event = "wall";
            jvm.load("start,event=wall,interval=5ms" + output);
            return;
        }
        if (event == null) {
            try {
                jvm.load("start,event=cpu,interval=1ms" + output);
                event = "cpu";
                return;
            } catch (IOException e) {
                note = "event=cpu (perf_events) refused: " + e.getMessage() + "; using itimer";
                event = "itimer";
            }
        }
        jvm.load("start,event=" + event + ",interval=1ms" + output);
    }

    /**
     * Stops sampling in {@code jvm}, brings its recording here and draws from it, with
     * async-profiler's converter: the flame graph {@code file}, its samples as collapsed stacks
     * with kernel frames marked {@code _[k]} ({@link #collapsed}, what compare diffs), the heat map
     * ({@link #heatmap}) and, for on-CPU samples from perf_events, the user and kernel views.
     */
    public void stop(Profiled jvm, Path file) throws IOException {
        Path recording = recording(file);
        jvm.load("stop");
        jvm.fetch(recording);
        String step = file.getParent().getFileName() + " " + stem(file);
        CollapsedStacks all = ProfilerConverter.collapsed(recording);
        all.write(collapsed(file));
        ProfilerConverter.flameGraph(all, step + ": " + event + " samples", file);
        ProfilerConverter.heatmap(recording, step + ": " + event + " samples over time", heatmap(file));
        if (mode.equals("cpu") && event.equals("cpu")) {
            // The converter filters stacks by the frames they pass through, not by where they end,
            // so the split by the innermost frame's mode is made here.
            ProfilerConverter.flameGraph(all.userOnly(), step + ": user mode only", userView(file));
            ProfilerConverter.flameGraph(all.kernelOnly(), step + ": kernel mode only", kernelView(file));
        }
    }

    /** The profiler's JFR recording beside a flame graph: {@code x.html} → {@code x.jfr}. */
    public static Path recording(Path html) {
        return html.resolveSibling(stem(html) + ".jfr");
    }

    /** The heat map beside a flame graph: {@code x.html} → {@code x-heatmap.html}. */
    public static Path heatmap(Path html) {
        return html.resolveSibling(stem(html) + "-heatmap.html");
    }

    private static String stem(Path html) {
        return html.getFileName().toString().replaceFirst("\\.html$", "");
    }

    /** The collapsed stacks beside a flame graph: {@code x.html} → {@code x.collapsed}. */
    public static Path collapsed(Path html) {
        return html.resolveSibling(html.getFileName().toString().replaceFirst("\\.html$", "") + ".collapsed");
    }

    /** The user-mode view beside a CPU flame graph: {@code x.html} → {@code x-user.html}. */
    public static Path userView(Path html) {
        return html.resolveSibling(html.getFileName().toString().replaceFirst("\\.html$", "") + "-user.html");
    }

    /** The kernel-mode view beside a CPU flame graph: {@code x.html} → {@code x-kernel.html}. */
    public static Path kernelView(Path html) {
        return html.resolveSibling(html.getFileName().toString().replaceFirst("\\.html$", "") + "-kernel.html");
    }

    /** The sampling event in use ({@code cpu} or {@code itimer}), and why, for environment.json. */
    public String describe() {
        return "async-profiler 4.6 (JFR, drawn by its converter), " + mode + " mode, event=" + (event == null ? "(not started)" : event)
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
