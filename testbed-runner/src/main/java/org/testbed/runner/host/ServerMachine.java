package org.testbed.runner.host;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.testbed.ssh.RemoteResult;
import org.testbed.ssh.SshException;
import org.testbed.ssh.SshTarget;

/**
 * The server's machine during a run, over one ssh connection that every command shares
 * (OpenSSH's ControlMaster: a snapshot costs a round trip, not a handshake).
 *
 * <p>That connection is a <em>lifeline</em>: its remote side is a small shell that starts the
 * run's memcached as its own child (with a local run's flags: 1024 MB, 4096 connections, 2
 * threads) and, when its input ends (the runner closed it, or the
 * connection was lost: the runner died, the network or sshd went away), stops every variant the
 * run deployed and its memcached, and removes those of its directories marked {@link #REMOVE_AT_END}
 * (a load machine's copy of JMeter). So a run that ends in any way leaves no process on the server's
 * machine, even when the runner can no longer reach it to stop them itself.
 */
public final class ServerMachine implements AutoCloseable {
    /** One short command (a snapshot, a stop): a hung connection must not hang the run. */
    static final Duration SHORT = Duration.ofSeconds(30);
    /** A file that marks a directory of the run's as the run's alone: the lifeline's end removes it whole. */
    static final String REMOVE_AT_END = "testbed-remove-at-end";
    /** What the lifeline says when its memcached could not listen on the port it was given. */
    private static final String PORT_TAKEN = "port taken?";
    /** ssh's own failures (no connection, lost connection) exit with 255; remote commands do not. */
    private static final int SSH_FAILED = 255;

    /**
     * The remote side of the lifeline. Arguments: the memcached port (0: none) then the deploy
     * directories to stop at the end. Prints one {@code lifeline: ready} line, then waits for the
     * end of its input.
     */
    private static final String LIFELINE = String.join("\n",
            "port=\"$1\"; shift; mc=",
            "cleanup() {",
            "  for d in \"$@\"; do [ -x \"$d/testbed-launch\" ] && \"$d/testbed-launch\" stop >/dev/null 2>&1; done",
            "  for d in \"$@\"; do [ -f \"$d/" + REMOVE_AT_END + "\" ] && rm -rf \"$d\"; done",
            "  [ -n \"$mc\" ] && kill \"$mc\" 2>/dev/null && wait \"$mc\" 2>/dev/null; mc=",
            "}",
            "trap 'cleanup \"$@\"; exit 0' EXIT HUP TERM INT PIPE",
            "if [ \"$port\" != 0 ]; then",
            "  command -v memcached >/dev/null 2>&1 || { echo \"lifeline: no memcached on $(hostname): install it"
                    + " (apt-get install memcached) or give MEMCACHED_SERVERS\"; exit 3; }",
            "  memcached -l 127.0.0.1 -p \"$port\" -U 0 -m 1024 -c 4096 -t 2 -u \"$(id -un)\" </dev/null >/dev/null 2>&1 &",
            "  mc=$!",
            "  sleep 0.5",
            "  kill -0 \"$mc\" 2>/dev/null || { mc=; echo \"lifeline: memcached did not start on 127.0.0.1:$port"
                    + " of $(hostname) (port taken?)\"; exit 3; }",
            "fi",
            "echo \"lifeline: ready $(id -un) $mc\"",
            "cat >/dev/null",
            "");

    private final SshTarget target;
    private final Path controlDirectory;
    private Process lifeline;
    private String user = "";
    private long memcachedPid = -1;

    private ServerMachine(SshTarget target, Path controlDirectory) {
        this.target = target;
        this.controlDirectory = controlDirectory;
    }

    /**
     * Connects (with {@link SshTarget#checkConnection}'s clear errors) and opens the lifeline.
     *
     * @param memcachedPort a port for the run's memcached on the machine's loopback, 0 for none
     * @param deployDirectories the directories the run deploys variants into, stopped when the lifeline ends
     */
    public static ServerMachine connect(SshTarget target, int memcachedPort, List<String> deployDirectories) {
        Path control;
        try {
            // Short: a unix socket's path has about 100 characters at most.
            control = Files.createTempDirectory(Path.of("/tmp"), "tb-ssh");
            // A runner stopped from outside never reaches close(): ssh removes its socket, the JVM the directory.
            control.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a directory for the ssh connection: " + e.getMessage(), e);
        }
        SshTarget shared = target.withOptions(List.of("ControlPath=" + control.resolve("%C")));
        ServerMachine machine = new ServerMachine(shared, control);
        try {
            shared.checkConnection();
            machine.openLifeline(memcachedPort, deployDirectories);
            return machine;
        } catch (RuntimeException e) {
            machine.close();
            throw e;
        }
    }

    private void openLifeline(int memcachedPort, List<String> deployDirectories) {
        List<String> words = new ArrayList<>(List.of("bash", "-c", LIFELINE, "lifeline", Integer.toString(memcachedPort)));
        words.addAll(deployDirectories);
        List<String> command = target.withOptions(List.of("ControlMaster=yes")).sessionCommand(words.toArray(String[]::new));
        try {
            lifeline = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new SshException("could not run ssh: " + e.getMessage());
        }
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(lifeline.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    ready.complete(line);
                }
            } catch (IOException e) {
                // the connection ended: nothing more to read
            }
            ready.complete(null);
        }, "ssh-lifeline");
        reader.setDaemon(true);
        reader.start();
        String line;
        try {
            line = ready.get(SHORT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            line = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            line = null;
        }
        if (line == null || !line.startsWith("lifeline: ready")) {
            String said = line == null ? "no answer within " + SHORT.toSeconds() + " s" : line.replace("lifeline: ", "");
            String message = "could not open the run's session on " + target.destination() + ": " + said;
            throw line != null && line.contains(PORT_TAKEN) ? new PortTakenException(message) : new SshException(message);
        }
        String[] fields = line.substring("lifeline: ready".length()).strip().split("\\s+");
        user = fields.length > 0 ? fields[0] : "";
        memcachedPid = fields.length > 1 ? Long.parseLong(fields[1]) : -1;
    }

    /** The connection every command of the run goes through. */
    public SshTarget target() {
        return target;
    }

    /** The login on the server's machine (whose hsperfdata directory the server's JVM writes). */
    public String user() {
        return user;
    }

    /** The pid of the run's memcached there, or -1 when the run started none. */
    public long memcachedPid() {
        return memcachedPid;
    }

    public String destination() {
        return target.destination();
    }

    /**
     * Runs a command there. A failure of ssh itself (exit 255, or no answer in time) means the
     * machine is lost: a {@link ServerLostException}; a failing remote command is the caller's to judge.
     */
    public RemoteResult run(Duration limit, String... words) {
        RemoteResult result = target.run(limit, words);
        if (result.timedOut() || result.exitCode() == SSH_FAILED) {
            throw lost(result);
        }
        return result;
    }

    /** Runs a bash script there, with arguments; failures as {@link #run}. */
    public RemoteResult script(String script, String... arguments) {
        List<String> words = new ArrayList<>(List.of("bash", "-c", script, "testbed"));
        words.addAll(List.of(arguments));
        return run(SHORT, words.toArray(String[]::new));
    }

    /** The loss, in the words of a fresh connection attempt when there are any (refused, unreachable...). */
    ServerLostException lost(RemoteResult result) {
        String said = result.timedOut() ? "no answer within " + SHORT.toSeconds() + " s"
                : result.stderr().strip().replaceAll("\\s*\\R\\s*", "; ");
        try {
            target.checkConnection();
        } catch (SshException e) {
            said = e.getMessage();
        }
        return new ServerLostException("lost the connection to " + target.destination() + " (" + (said.isEmpty()
                ? "ssh failed" : said) + ")");
    }

    /**
     * Ends the lifeline: its remote side stops what the run deployed and its memcached. Waits a
     * little for it to say it is done, so the next run does not meet this one's processes.
     */
    @Override
    public void close() {
        if (lifeline != null) {
            try {
                lifeline.getOutputStream().close();
                if (!lifeline.waitFor(40, TimeUnit.SECONDS)) {
                    lifeline.destroy();
                    lifeline.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (IOException e) {
                lifeline.destroy();
            } catch (InterruptedException e) {
                lifeline.destroy();
                Thread.currentThread().interrupt();
            }
        }
        try (var files = Files.list(controlDirectory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(controlDirectory);
        } catch (IOException e) {
            // a stale socket in a temporary directory is harmless
        }
    }

    /** The run's memcached there could not listen on the port it was given: try another. */
    static final class PortTakenException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }
}
