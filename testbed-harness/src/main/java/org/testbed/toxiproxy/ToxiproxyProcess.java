package org.testbed.toxiproxy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testbed.process.ChildProcesses;

/**
 * A real Toxiproxy server (Shopify's TCP proxy whose "toxics" add latency, cut or stall a
 * connection) on a loopback port, beside {@code MemcachedProcess}: it puts a network between the
 * servers and their store where there is none, and lets fault tests break that network on demand.
 * Its API is driven with {@link #client()}.
 *
 * <p>The binary is {@code $TOXIPROXY_BIN}, else the one {@link ToxiproxyBuild} built into the user's
 * cache, else {@code toxiproxy-server} on the PATH. Without any, starting fails with a message saying
 * how to build it: nothing here ever skips silently. The process is stopped by {@link #close()} and,
 * should the JVM end first, by a shutdown hook, so no proxy outlives its run.
 */
public final class ToxiproxyProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final String LOOPBACK = ChildProcesses.LOOPBACK;

    private final Process process;
    private final int port;
    private final ToxiproxyClient client;
    private final Thread stopOnExit;

    private ToxiproxyProcess(Process process, int port) {
        this.process = process;
        this.port = port;
        this.client = new ToxiproxyClient(URI.create("http://" + LOOPBACK + ":" + port));
        this.stopOnExit = new Thread(this::stop, "toxiproxy-stop-" + port);
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /** Starts Toxiproxy on a free loopback port, on any CPU. */
    public static ToxiproxyProcess start() {
        return start("");
    }

    /**
     * Starts Toxiproxy on a free loopback port under {@code taskset -c cpus} ({@code ""}: any CPU).
     * Pinned from its start, not moved later, so the Go runtime sizes its thread pool to those CPUs.
     */
    public static ToxiproxyProcess start(String cpus) {
        Path binary = findBinary();
        IOException last = null;
        // A free port can be taken between probing and binding; try a few before giving up.
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return launch(binary, ChildProcesses.freeLoopbackPort(), cpus);
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("Could not start toxiproxy: " + last.getMessage(), last);
    }

    /** The client of this server's HTTP API. */
    public ToxiproxyClient client() {
        return client;
    }

    /** The API's port on 127.0.0.1. */
    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the proxy (its proxies and their connections go with it) and waits for it to end. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException exiting) {
            // the JVM is already shutting down: the hook runs stop() anyway
        }
    }

    private void stop() {
        ChildProcesses.killAndWait(process);
    }

    private static ToxiproxyProcess launch(Path binary, int port, String cpus) throws IOException {
        List<String> command = new ArrayList<>();
        if (!cpus.isBlank()) {
            command.addAll(List.of("taskset", "-c", cpus.strip()));
        }
        command.addAll(List.of(binary.toString(), "-host", LOOPBACK, "-port", Integer.toString(port)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        ToxiproxyProcess toxiproxy = new ToxiproxyProcess(process, port);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                toxiproxy.close();
                throw new IOException("toxiproxy exited with status " + process.exitValue() + " (port " + port
                        + " in use?): " + String.join(" ", command));
            }
            if (toxiproxy.client.answers()) {
                return toxiproxy;
            }
            ChildProcesses.pause(20);
        }
        toxiproxy.close();
        throw new IOException("toxiproxy's API did not answer on port " + port + " within " + START_TIMEOUT);
    }

    /** The toxiproxy binary, or an exception that says how to build it. */
    public static Path findBinary() {
        String configured = System.getenv("TOXIPROXY_BIN");
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            if (Files.isExecutable(path)) {
                return path;
            }
            throw new IllegalStateException("TOXIPROXY_BIN=" + configured + " is not an executable file.");
        }
        Path cached = ToxiproxyBuild.inUserCache().binary();
        if (Files.isExecutable(cached)) {
            return cached;
        }
        for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, "toxiproxy-server"))) {
                return Path.of(directory, "toxiproxy-server");
            }
        }
        throw new IllegalStateException("toxiproxy is not installed: no " + cached + " and no 'toxiproxy-server' on the PATH."
                + " Build it once (needs Go): ./testbed test installs it when run as root, or run "
                + ToxiproxyBuild.installCommand(cached.getParent()) + " and rename 'server' to 'toxiproxy-server';"
                + " or set TOXIPROXY_BIN to a toxiproxy-server binary.");
    }

    @Override
    public String toString() {
        return "toxiproxy@" + LOOPBACK + ":" + port;
    }
}
