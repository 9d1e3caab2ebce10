package org.testbed.runner.flame;

import org.testbed.runfolder.flame.CollapsedStacks;
import org.testbed.runfolder.flame.FlameGraphHtml;
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
 * jattach do — with {@code start} before the step and {@code stop,file=...html} after it.
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

    /** Starts sampling in JVM {@code pid}; picks the event on first use. */
    public void start(long pid) throws IOException {
        start(attached(pid));
    }

    /** Starts sampling in {@code jvm}; picks the event on first use. */
    public void start(Profiled jvm) throws IOException {
        if (mode.equals("wall")) {
            // Wall clock: every thread sampled whether running or waiting, so queues and blocked
            // carriers show; a coarser interval, as most samples are of idle threads.
            event = "wall";
            jvm.load("start,event=wall,interval=5ms");
            return;
        }
        if (event == null) {
            try {
                jvm.load("start,event=cpu,interval=1ms");
                event = "cpu";
                return;
            } catch (IOException e) {
                note = "event=cpu (perf_events) refused: " + e.getMessage() + "; using itimer";
                event = "itimer";
            }
        }
        jvm.load("start,event=" + event + ",interval=1ms");
    }

    /**
     * Stops sampling and writes the flame graph (HTML) to {@code file}; the same samples go, as
     * collapsed stacks with kernel frames marked ({@code _[k]}), to {@link #collapsed(Path)} of it,
     * which compare diffs and the user and kernel views are drawn from.
     */
    public void stop(long pid, Path file) throws IOException {
        stop(attached(pid), file);
    }

    /** As {@link #stop(long, Path)}, for {@code jvm} here or on the server's machine. */
    public void stop(Profiled jvm, Path file) throws IOException {
        Path stacks = collapsed(file);
        jvm.load("dump,collapsed,ann,file=" + jvm.writePath(stacks));
        jvm.load("stop,file=" + jvm.writePath(file) + ",title=" + file.getFileName());
        jvm.fetch(stacks);
        jvm.fetch(file);
        if (mode.equals("cpu") && event.equals("cpu")) {
            CollapsedStacks all = CollapsedStacks.read(stacks);
            FlameGraphHtml.write(userView(file), file.getFileName() + ": user mode only", all.userOnly(),
                    "On-CPU samples whose innermost frame ran in user mode (Java, JIT-compiled and native code); "
                            + "the kernel view beside it holds the rest.");
            FlameGraphHtml.write(kernelView(file), file.getFileName() + ": kernel mode only", all.kernelOnly(),
                    "On-CPU samples whose innermost frame ran in the kernel (system calls, network stack, scheduler, "
                            + "page faults), under the Java frames that entered it.");
        }
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
        return "async-profiler 4.6, " + mode + " mode, event=" + (event == null ? "(not started)" : event)
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
