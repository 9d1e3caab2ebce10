package org.testbed.runner.host;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testbed.ssh.RemoteResult;
import org.testbed.ssh.SharedConnection;
import org.testbed.ssh.SshException;
import org.testbed.ssh.SshTarget;

/**
 * The server's machine during a run, over one ssh connection that every command shares
 * ({@link SharedConnection}: a snapshot costs a round trip, not a handshake).
 *
 * <p>That connection's lifeline is a small shell that starts the run's memcached as its own child
 * (with a local run's flags: 1024 MB, 4096 connections, 2 threads) and, when its input ends (the
 * runner closed it, or the connection was lost: the runner died, the network or sshd went away),
 * stops every variant the run deployed and its memcached. So a run that ends in any way leaves no
 * process on the server's machine, even when the runner can no longer reach it to stop them itself.
 */
public final class ServerMachine implements AutoCloseable {
    /** One short command (a snapshot, a stop): a hung connection must not hang the run. */
    static final Duration SHORT = SharedConnection.SHORT;
    /** What the lifeline says when its memcached could not listen on the port it was given. */
    private static final String PORT_TAKEN = "port taken?";

    /**
     * The remote side of the lifeline. Arguments: the memcached port (0: none) then the deploy
     * directories to stop at the end. Prints one {@code lifeline: ready} line, then waits for the
     * end of its input.
     */
    private static final String LIFELINE = String.join("\n",
            "port=\"$1\"; shift; mc=",
            "cleanup() {",
            "  for d in \"$@\"; do [ -x \"$d/testbed-launch\" ] && \"$d/testbed-launch\" stop >/dev/null 2>&1; done",
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
                    + " of $(hostname) (" + PORT_TAKEN + ")\"; exit 3; }",
            "fi",
            "echo \"" + SharedConnection.READY + " $(id -un) $mc\"",
            "cat >/dev/null",
            "");

    private final SharedConnection connection;
    private final String user;
    private final long memcachedPid;

    private ServerMachine(SharedConnection connection, String user, long memcachedPid) {
        this.connection = connection;
        this.user = user;
        this.memcachedPid = memcachedPid;
    }

    /**
     * Connects (with {@link SshTarget#checkConnection}'s clear errors) and opens the lifeline.
     *
     * @param memcachedPort a port for the run's memcached on the machine's loopback, 0 for none
     * @param deployDirectories the directories the run deploys variants into, stopped when the lifeline ends
     */
    public static ServerMachine connect(SshTarget target, int memcachedPort, List<String> deployDirectories) {
        List<String> arguments = new ArrayList<>(List.of(Integer.toString(memcachedPort)));
        arguments.addAll(deployDirectories);
        SharedConnection connection;
        try {
            connection = SharedConnection.open(target, LIFELINE, arguments);
        } catch (SshException e) {
            throw e.getMessage().contains(PORT_TAKEN) ? new PortTakenException(e.getMessage()) : e;
        }
        List<String> ready = connection.ready(); // the login, and the pid of the run's memcached if it started one
        return new ServerMachine(connection, ready.isEmpty() ? "" : ready.get(0),
                ready.size() > 1 ? Long.parseLong(ready.get(1)) : -1);
    }

    /** The connection every command of the run goes through. */
    public SshTarget target() {
        return connection.target();
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
        return connection.destination();
    }

    /** Runs a command there; a lost machine is a {@link org.testbed.ssh.ConnectionLostException} ({@link SharedConnection#run}). */
    public RemoteResult run(Duration limit, String... words) {
        return connection.run(limit, words);
    }

    /** Runs a bash script there, with arguments; failures as {@link #run}. */
    public RemoteResult script(String script, String... arguments) {
        return connection.script(script, arguments);
    }

    /**
     * Ends the lifeline: its remote side stops what the run deployed and its memcached. Waits a
     * little for it to say it is done, so the next run does not meet this one's processes.
     */
    @Override
    public void close() {
        connection.close();
    }

    /** The run's memcached there could not listen on the port it was given: try another. */
    static final class PortTakenException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }
}
