package org.testbed.ssh;

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

/**
 * A machine over one ssh connection that every command shares (OpenSSH's ControlMaster: a command
 * costs a round trip, not a handshake), held open by a <em>lifeline</em>: a session whose remote
 * side is the caller's bash script. The script prints one line, {@code lifeline: ready} (with words
 * of its own after it) once it is set up, or {@code lifeline: } and why not; then it waits for the
 * end of its input. That end comes when this side closes it, or when the connection is lost (this
 * process died, the network or sshd went away), so the script's clean-up there runs however the
 * work ends, even when this side can no longer reach the machine to clean up itself.
 */
public final class SharedConnection implements AutoCloseable {
    /** One short command (a snapshot, a stop): a hung connection must not hang the caller. */
    public static final Duration SHORT = Duration.ofSeconds(30);
    /** The lifeline's first line once it is set up. */
    public static final String READY = "lifeline: ready";
    /** ssh's own failures (no connection, lost connection) exit with 255; remote commands do not. */
    private static final int SSH_FAILED = 255;

    private final SshTarget target;
    private final Path controlDirectory;
    private Process lifeline;
    private List<String> ready = List.of();

    private SharedConnection(SshTarget target, Path controlDirectory) {
        this.target = target;
        this.controlDirectory = controlDirectory;
    }

    /**
     * Connects (with {@link SshTarget#checkConnection}'s clear errors) and opens the lifeline.
     * Fails with an {@link SshException} that quotes the lifeline when it does not say it is ready.
     *
     * @param lifeline  the remote side of the lifeline, a bash script (see the class comment)
     * @param arguments the script's arguments
     */
    public static SharedConnection open(SshTarget target, String lifeline, List<String> arguments) {
        Path control;
        try {
            // Short: a unix socket's path has about 100 characters at most.
            control = Files.createTempDirectory(Path.of("/tmp"), "tb-ssh");
            // A process stopped from outside never reaches close(): ssh removes its socket, the JVM the directory.
            control.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a directory for the ssh connection: " + e.getMessage(), e);
        }
        SshTarget shared = target.withOptions(List.of("ControlPath=" + control.resolve("%C")));
        SharedConnection connection = new SharedConnection(shared, control);
        try {
            shared.checkConnection();
            connection.openLifeline(lifeline, arguments);
            return connection;
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private void openLifeline(String script, List<String> arguments) {
        List<String> words = new ArrayList<>(List.of("bash", "-c", script, "lifeline"));
        words.addAll(arguments);
        List<String> command = target.withOptions(List.of("ControlMaster=yes")).sessionCommand(words.toArray(String[]::new));
        try {
            lifeline = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new SshException("could not run ssh: " + e.getMessage());
        }
        CompletableFuture<String> first = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(lifeline.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    first.complete(line);
                }
            } catch (IOException e) {
                // the connection ended: nothing more to read
            }
            first.complete(null);
        }, "ssh-lifeline");
        reader.setDaemon(true);
        reader.start();
        String line;
        try {
            line = first.get(SHORT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            line = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            line = null;
        }
        if (line == null || !line.startsWith(READY)) {
            String said = line == null ? "no answer within " + SHORT.toSeconds() + " s" : line.replace("lifeline: ", "");
            throw new SshException("could not open the run's session on " + target.destination() + ": " + said);
        }
        String after = line.substring(READY.length()).strip();
        ready = after.isEmpty() ? List.of() : List.of(after.split("\\s+"));
    }

    /** The words the lifeline printed after {@link #READY}. */
    public List<String> ready() {
        return ready;
    }

    /** The connection every command goes through. */
    public SshTarget target() {
        return target;
    }

    public String destination() {
        return target.destination();
    }

    /**
     * Runs a command there. A failure of ssh itself (exit 255, or no answer in time) means the
     * machine is lost: a {@link ConnectionLostException}; a failing remote command is the caller's to judge.
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
    private ConnectionLostException lost(RemoteResult result) {
        String said = result.timedOut() ? "no answer within " + SHORT.toSeconds() + " s"
                : result.stderr().strip().replaceAll("\\s*\\R\\s*", "; ");
        try {
            target.checkConnection();
        } catch (SshException e) {
            said = e.getMessage();
        }
        return new ConnectionLostException("lost the connection to " + target.destination() + " (" + (said.isEmpty()
                ? "ssh failed" : said) + ")");
    }

    /**
     * Ends the lifeline: its remote side cleans up. Waits a little for it to say it is done, so the
     * next user of the machine does not meet this one's processes.
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
}
