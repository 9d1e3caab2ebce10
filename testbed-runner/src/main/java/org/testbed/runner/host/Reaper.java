package org.testbed.runner.host;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Stops what this JVM started when it dies without stopping it itself. The shutdown hooks (a run's,
 * {@code serve}'s) stop every process it started on SIGTERM, Ctrl-C and a normal exit, but SIGKILL
 * ({@code kill -9}, the OOM killer, a CI job's last word) runs no hook: the servers, memcached,
 * Toxiproxy, JMeter... would be handed to init and go on running, holding their ports and CPUs under
 * the next run.
 *
 * <p>How: a small {@code sh} ({@code reaper.sh}, beside this class), started once, with a pipe to its
 * stdin. Every second a daemon thread here writes to it the descendants of this JVM that came (pid
 * and start time, field 22 of {@code /proc/PID/stat}) and went; the shell, blocked in {@code read}
 * between lines, costs nothing. Only this JVM holds the pipe's write end (Java closes every other
 * descriptor in the processes it starts), so the shell reads end of file once this JVM has exited,
 * however it did: it then thaws the {@link Freezer}'s cgroups, stops (SIGCONT and SIGTERM, SIGKILL
 * 5 s later) every process it was told of that still runs with the same start time and every one in
 * those cgroups, removes the cgroups and exits. After a normal exit the hooks have stopped everything
 * already: it finds nothing and exits without a word. The hooks leave the reaper be ({@link #isReaper}):
 * it ignores SIGTERM and the terminal's signals, and ends after them by itself.
 *
 * <p>Where a cgroup v2 can be made, this JVM also moves itself, once the shell is started, into a
 * group of its own under the freezers' folder ({@link Freezer#holdThisJvm}): every process it starts
 * after is born in that folder's tree, and the shell stops it there even when it was started too
 * shortly before the kill to have been written. Elsewhere (cgroup v1 only, not root) the watch
 * alone tells it, and a process started less than a second before this JVM is killed may escape.
 *
 * <p>This JVM watches rather than the shell because {@code /proc/PID/task/TID/children} is missing
 * from kernels built without {@code CONFIG_PROC_CHILDREN}, and a shell reading every process's
 * {@code /proc/PID/stat} each second would cost more than what it watches.
 */
public final class Reaper {
    private static final long EVERY_MS = 1_000;
    private static final String SCRIPT_VARIABLE = "TESTBED_REAPER";
    private static Reaper started;

    private final Process shell;
    private final Writer pipe;
    /** The descendants written to the shell, with the start time written for each. */
    private final Map<ProcessHandle, String> written = new HashMap<>();
    private volatile boolean untold;

    private Reaper(Process shell) {
        this.shell = shell;
        this.pipe = new OutputStreamWriter(shell.getOutputStream(), StandardCharsets.US_ASCII);
    }

    /**
     * Starts this JVM's reaper unless it runs already, and the thread that keeps it told; empty where
     * there is none (no {@code /proc} or no {@code /bin/sh}: not Linux), the hooks alone then.
     */
    public static synchronized Optional<Reaper> start() {
        if (started != null) {
            return Optional.of(started);
        }
        Path sh = Path.of("/bin/sh");
        Optional<String> self = startTime(ProcessHandle.current().pid());
        if (self.isEmpty() || !Files.isExecutable(sh)) {
            return Optional.empty();
        }
        try {
            ProcessBuilder builder = new ProcessBuilder(sh.toString(), "-c", "eval \"$" + SCRIPT_VARIABLE + "\"",
                    "testbed-reaper", Long.toString(ProcessHandle.current().pid()),
                    Freezer.groupsFolder().map(Path::toString).orElse(""))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            // In the environment rather than after -c: ps then shows one line, not the whole script.
            builder.environment().put(SCRIPT_VARIABLE, script());
            Reaper reaper = new Reaper(builder.start());
            // The shell started outside it: what this JVM starts from now on is born in a group the shell empties.
            Freezer.holdThisJvm();
            reaper.update();
            Thread watcher = new Thread(reaper::keepTelling, "reaper-watch");
            watcher.setDaemon(true);
            watcher.start();
            started = reaper;
            return Optional.of(reaper);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code process} is this JVM's reaper: a hook that stops the descendants leaves it be. */
    public static synchronized boolean isReaper(ProcessHandle process) {
        return started != null && started.shell.pid() == process.pid();
    }

    /** The shell's pid. */
    public long pid() {
        return shell.pid();
    }

    /** Writes to the shell the descendants that came and went since the last time. */
    synchronized void update() throws IOException {
        StringBuilder lines = new StringBuilder();
        for (Iterator<Map.Entry<ProcessHandle, String>> it = written.entrySet().iterator(); it.hasNext();) {
            Map.Entry<ProcessHandle, String> entry = it.next();
            if (!entry.getKey().isAlive()) { // pid and start time: a pid used again is not alive
                lines.append("- ").append(entry.getKey().pid()).append(' ').append(entry.getValue()).append('\n');
                it.remove();
            }
        }
        ProcessHandle.current().descendants().filter(p -> p.pid() != shell.pid() && !written.containsKey(p))
                .forEach(p -> startTime(p.pid()).ifPresent(start -> {
                    written.put(p, start);
                    lines.append("+ ").append(p.pid()).append(' ').append(start).append('\n');
                }));
        if (!lines.isEmpty()) {
            pipe.write(lines.toString());
            pipe.flush();
        }
    }

    /**
     * Stops telling the shell of what comes: as if this JVM were killed before its next tick. What the
     * shell still finds is what {@link Freezer#holdThisJvm} put in its groups (ReaperTest's case).
     */
    void stopTelling() {
        untold = true;
    }

    private void keepTelling() {
        try {
            while (true) {
                Thread.sleep(EVERY_MS);
                if (!untold) {
                    update();
                }
            }
        } catch (IOException shellGone) {
            // Nothing to tell any more (killed by hand): the hooks still stop everything on a normal exit.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Field 22 of {@code /proc/PID/stat}: when the process started, in clock ticks since boot. */
    static Optional<String> startTime(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            // "PID (comm) S ...": the comm may hold spaces and parentheses, so count after the last ')'.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return Optional.of(fields[22 - 3]);
        } catch (IOException | RuntimeException gone) {
            return Optional.empty();
        }
    }

    private static String script() throws IOException {
        try (InputStream in = Reaper.class.getResourceAsStream("reaper.sh")) {
            if (in == null) {
                throw new IOException("reaper.sh is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
