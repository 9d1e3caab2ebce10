package org.testbed.memcached;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.testbed.process.ChildProcesses;

/**
 * A real {@code memcached} process on a loopback port, for tests, benchmarks and the runner. It can
 * be paused (SIGSTOP: connections stay open, nothing answers — a hung server), resumed, killed
 * (SIGKILL — a dead server) and restarted on the same port, which is what fault tests need.
 *
 * <p>The binary is {@code $MEMCACHED_BIN}, else {@code memcached} on the PATH. Without it, starting
 * fails with a message naming the package to install: nothing here ever skips silently.
 */
public final class MemcachedProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final String LOOPBACK = ChildProcesses.LOOPBACK;

    private final Path binary;
    private final int port;
    private final int memoryMb;
    private Process process;

    private MemcachedProcess(Path binary, int port, int memoryMb) {
        this.binary = binary;
        this.port = port;
        this.memoryMb = memoryMb;
    }

    /** Starts memcached on a free loopback port with 64 MB of memory. */
    public static MemcachedProcess start() {
        return start(0, 64);
    }

    /** Starts memcached on {@code port} (0: a free one) with {@code memoryMb} of item memory. */
    public static MemcachedProcess start(int port, int memoryMb) {
        Path binary = findBinary();
        IOException last = null;
        // A free port can be taken between probing and binding; try a few before giving up.
        for (int attempt = 0; attempt < 3; attempt++) {
            int chosen = port != 0 ? port : ChildProcesses.freeLoopbackPort();
            MemcachedProcess memcached = new MemcachedProcess(binary, chosen, memoryMb);
            try {
                memcached.launch();
                return memcached;
            } catch (IOException e) {
                last = e;
                if (port != 0) {
                    break;
                }
            }
        }
        throw new IllegalStateException("Could not start memcached: " + last.getMessage(), last);
    }

    public int port() {
        return port;
    }

    /** {@code 127.0.0.1:PORT}, the form MEMCACHED_SERVERS takes. */
    public String address() {
        return LOOPBACK + ":" + port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** SIGSTOP: the process keeps its sockets but answers nothing, like a hung server. */
    public void pause() {
        signal("STOP");
        awaitAllThreadsStopped();
    }

    /**
     * SIGSTOP is delivered asynchronously: a worker thread on another core can still answer a
     * request for a moment after kill(1) returns. Wait (bounded) until every thread is stopped.
     */
    private void awaitAllThreadsStopped() {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        if (!Files.isDirectory(tasks)) {
            ChildProcesses.pause(50); // not Linux: no way to look, give the signal a moment
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < deadline) {
            try (var threads = Files.list(tasks)) {
                boolean allStopped = threads.allMatch(task -> {
                    try {
                        String stat = Files.readString(task.resolve("stat"));
                        char state = stat.charAt(stat.lastIndexOf(')') + 2);
                        return state == 'T' || state == 't';
                    } catch (IOException gone) {
                        return true;
                    }
                });
                if (allStopped) {
                    return;
                }
            } catch (IOException e) {
                return;
            }
            ChildProcesses.pause(5);
        }
        throw new IllegalStateException("memcached " + process.pid() + " did not stop within 2 s of SIGSTOP");
    }

    /** SIGCONT: undoes {@link #pause()}; queued requests are answered. */
    public void resume() {
        signal("CONT");
    }

    /** SIGKILL: connections are reset, like a crashed server. Its items are gone. */
    public void kill() {
        ChildProcesses.killAndWait(process);
    }

    /** Starts a fresh memcached on the same port, killing the current one first if needed. */
    public void restart() {
        kill();
        try {
            launch();
        } catch (IOException e) {
            throw new IllegalStateException("Could not restart memcached on port " + port + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            signal("CONT"); // a stopped process still dies on SIGKILL, but this keeps its exit prompt
            kill();
        }
    }

    private void launch() throws IOException {
        List<String> command = new ArrayList<>(List.of(binary.toString(),
                "-l", LOOPBACK, "-p", Integer.toString(port), "-U", "0",
                "-m", Integer.toString(memoryMb), "-c", "4096", "-t", "2"));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("-u");      // memcached refuses to run as root unless told which user to be
            command.add("root");
        }
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("memcached exited with status " + process.exitValue()
                        + " (port " + port + " in use?): " + String.join(" ", command));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(LOOPBACK, port), 200);
                return;
            } catch (IOException notYet) {
                ChildProcesses.pause(20);
            }
        }
        process.destroyForcibly();
        throw new IOException("memcached did not accept connections on port " + port + " within " + START_TIMEOUT);
    }

    private void signal(String signal) {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("memcached is not running");
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot send SIG" + signal + " to memcached: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while signalling memcached", e);
        }
    }

    /** The memcached binary, or an exception that says how to install it. */
    public static Path findBinary() {
        String configured = System.getenv("MEMCACHED_BIN");
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            if (Files.isExecutable(path)) {
                return path;
            }
            throw new IllegalStateException("MEMCACHED_BIN=" + configured + " is not an executable file.");
        }
        String pathVariable = System.getenv().getOrDefault("PATH", "");
        List<String> directories = new ArrayList<>(List.of(pathVariable.split(File.pathSeparator)));
        directories.add("/usr/bin");
        directories.add("/usr/sbin");
        directories.add("/usr/local/bin");
        for (String directory : directories) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, "memcached");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("memcached is not installed: no 'memcached' on the PATH. Install it"
                + " (Debian/Ubuntu: sudo apt-get install memcached; Fedora: sudo dnf install memcached;"
                + " macOS: brew install memcached) or set MEMCACHED_BIN to its path. ./testbed test installs it"
                + " when run as root.");
    }

    @Override
    public String toString() {
        return "memcached@" + address();
    }
}
