package org.testbed.ssh;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A machine reached with OpenSSH's {@code ssh} and {@code scp}, run as processes: {@code USER@HOST},
 * the ssh port, an optional private key and extra {@code -o} options. Never interactive
 * ({@code BatchMode}), bounded in time, host keys accepted on first use and checked after that
 * unless an option says otherwise; {@code ~/.ssh/config} applies (aliases, ProxyJump...).
 */
public final class SshTarget {
    /** How long the connection check may take: ssh's own ConnectTimeout, plus the login. */
    static final Duration CONNECT_CHECK_LIMIT = Duration.ofSeconds(30);
    /**
     * ssh keeps the first value it is given for an option, so the caller's options come before
     * these: {@code StrictHostKeyChecking=yes} from the caller wins over accept-new.
     */
    private static final List<String> DEFAULT_OPTIONS = List.of("BatchMode=yes", "ConnectTimeout=10",
            "StrictHostKeyChecking=accept-new", "ServerAliveInterval=15", "ServerAliveCountMax=4", "LogLevel=ERROR");

    private final String destination;
    private final int port;
    private final Path identity;
    private final List<String> options;

    private SshTarget(String destination, int port, Path identity, List<String> options) {
        this.destination = destination;
        this.port = port;
        this.identity = identity;
        this.options = List.copyOf(options);
    }

    /**
     * @param destination {@code USER@HOST}, or a host (or alias of ~/.ssh/config) alone
     * @param port        the ssh port, 1..65535
     * @param identity    the private key to offer, the only one, or null for ssh's defaults
     * @param options     extra {@code ssh -o} options, {@code NAME=VALUE}
     */
    public static SshTarget of(String destination, int port, Path identity, List<String> options) {
        if (destination == null || destination.isBlank() || destination.startsWith("-") || destination.endsWith("@")
                || destination.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("--host must be USER@HOST (or a host name), got '" + destination + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--ssh-port must be an ssh port, 1-65535, got " + port);
        }
        if (identity != null && !Files.isReadable(identity)) {
            throw new IllegalArgumentException("--identity " + identity + ": no such readable file");
        }
        for (String option : options) {
            if (!option.matches("[A-Za-z]+=\\S.*")) {
                throw new IllegalArgumentException("--ssh-option takes NAME=VALUE (an ssh -o option), got '" + option + "'");
            }
        }
        return new SshTarget(destination, port, identity, options);
    }

    public String destination() {
        return destination;
    }

    /** The same target with {@code more} ssh options before this one's (ssh keeps the first value given). */
    public SshTarget withOptions(List<String> more) {
        List<String> all = new ArrayList<>(more);
        all.addAll(options);
        return of(destination, port, identity, all);
    }

    /**
     * The {@code ssh} command line that runs {@code words} on the target with its standard input
     * open, for a caller that starts and watches the process itself (a session that must last).
     */
    public List<String> sessionCommand(String... words) {
        return ssh(false, Arrays.asList(words));
    }

    /** The host part of the destination. */
    public String host() {
        return destination.substring(destination.indexOf('@') + 1);
    }

    public int port() {
        return port;
    }

    public Path identity() {
        return identity;
    }

    public List<String> options() {
        return options;
    }

    /** Fails with the packages to install when this machine has no {@code ssh} or {@code scp}. */
    public static void requireClient() {
        for (String tool : List.of("ssh", "scp")) {
            if (!onPath(tool)) {
                throw new SshException("no ssh client here (" + tool + " is not on the PATH). Install it:"
                        + " sudo apt-get install openssh-client (Debian/Ubuntu), sudo dnf install openssh-clients (Fedora)");
            }
        }
    }

    /** Logs in and runs {@code true}; on failure says why, with {@link SshFailure}'s message. */
    public void checkConnection() {
        requireClient();
        RemoteResult result = execute(ssh(false, List.of("true")), CONNECT_CHECK_LIMIT, null);
        if (result.timedOut()) {
            throw new SshException(SshFailure.TIMEOUT.message(this, ""));
        }
        if (!result.ok()) {
            throw new SshException(SshFailure.classify(result.stderr()).message(this, result.stderr()));
        }
    }

    /** Runs one command on the target, every word quoted for the remote shell, within {@code limit}. */
    public RemoteResult run(Duration limit, String... words) {
        return run(limit, null, words);
    }

    /**
     * As {@link #run(Duration, String...)}, also handing each line the command prints (both streams)
     * to {@code lines} as it comes, for progress a user should see while it runs.
     */
    public RemoteResult run(Duration limit, Consumer<String> lines, String... words) {
        return execute(ssh(true, Arrays.asList(words)), limit, lines);
    }

    /** Copies local files into {@code remoteDirectory} (relative to the login's home unless absolute). */
    public RemoteResult copy(Duration limit, String remoteDirectory, Path... files) {
        List<String> command = new ArrayList<>(List.of("scp", "-q"));
        command.addAll(optionArguments());
        command.addAll(List.of("-P", Integer.toString(port)));
        for (Path file : files) {
            command.add(file.toString());
        }
        command.add(destination + ":" + remoteDirectory + "/");
        return execute(command, limit, null);
    }

    /** Copies one local file to {@code remotePath}, a file name on the target. */
    public RemoteResult copyAs(Duration limit, Path file, String remotePath) {
        List<String> command = new ArrayList<>(List.of("scp", "-q"));
        command.addAll(optionArguments());
        command.addAll(List.of("-P", Integer.toString(port), file.toString(), destination + ":" + remotePath));
        return execute(command, limit, null);
    }

    /** Copies one file of the target ({@code remotePath}) to {@code file} here: binary, whatever its size. */
    public RemoteResult copyBack(Duration limit, String remotePath, Path file) {
        List<String> command = new ArrayList<>(List.of("scp", "-q"));
        command.addAll(optionArguments());
        command.addAll(List.of("-P", Integer.toString(port), destination + ":" + remotePath, file.toString()));
        return execute(command, limit, null);
    }

    private List<String> ssh(boolean noStdin, List<String> words) {
        List<String> command = new ArrayList<>(List.of("ssh"));
        if (noStdin) {
            command.add("-n");
        }
        command.addAll(optionArguments());
        command.addAll(List.of("-p", Integer.toString(port), destination, ShellQuoting.command(words)));
        return command;
    }

    private List<String> optionArguments() {
        List<String> arguments = new ArrayList<>();
        for (String option : options) {
            arguments.addAll(List.of("-o", option));
        }
        for (String option : DEFAULT_OPTIONS) {
            arguments.addAll(List.of("-o", option));
        }
        if (identity != null) {
            arguments.addAll(List.of("-i", identity.toString(), "-o", "IdentitiesOnly=yes"));
        }
        return arguments;
    }

    private static RemoteResult execute(List<String> command, Duration limit, Consumer<String> lines) {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        } catch (IOException e) {
            throw new SshException("could not run " + command.get(0) + ": " + e.getMessage());
        }
        try {
            process.getOutputStream().close();
            StringBuilder out = new StringBuilder();
            StringBuilder err = new StringBuilder();
            Thread outReader = reader(process.getInputStream(), out, lines);
            Thread errReader = reader(process.getErrorStream(), err, lines);
            boolean finished = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            outReader.join(TimeUnit.SECONDS.toMillis(5));
            errReader.join(TimeUnit.SECONDS.toMillis(5));
            synchronized (out) {
                synchronized (err) {
                    return new RemoteResult(finished ? process.exitValue() : -1, out.toString(), err.toString(), !finished);
                }
            }
        } catch (IOException e) {
            throw new SshException("could not talk to " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new SshException("interrupted while running " + command.get(0));
        }
    }

    private static Thread reader(InputStream stream, StringBuilder into, Consumer<String> lines) {
        Thread thread = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    synchronized (into) {
                        into.append(line).append('\n');
                    }
                    if (lines != null) {
                        lines.accept(line);
                    }
                }
            } catch (IOException e) {
                // The process was killed at its time limit: what was read so far is kept.
            }
        }, "ssh-output");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
