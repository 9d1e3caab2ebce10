package org.testbed.runner.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testbed.ssh.RemoteResult;

/**
 * A recording of a server on the server's machine: that machine's JDK's {@code jcmd} starts it and
 * stops it into the variant's directory there; the file is copied back with scp and removed there.
 * The recording's timestamps are that machine's clock: its offset from this one's is read at the
 * stop, from the middle of one ssh round trip, so the window falls on the recording to within half
 * that trip.
 */
final class RemoteFlightRecording implements FlightRecording {
    /** A recording of a long step over a slow link. */
    private static final Duration COPY = Duration.ofMinutes(5);

    private final ServerMachine machine;
    private final Jcmd jcmd;
    private final String name;
    private final String directory;

    private RemoteFlightRecording(ServerMachine machine, Jcmd jcmd, String name, String directory) {
        this.machine = machine;
        this.jcmd = jcmd;
        this.name = name;
        this.directory = directory;
    }

    /**
     * @param directory the variant's directory there, where the file is written
     * @param javaHome the server's JDK there, whose {@code bin/jcmd} controls the recording
     */
    static FlightRecording start(ServerMachine machine, String directory, long pid, String javaHome, String name,
                                 List<String> settings) throws IOException {
        String jcmdPath = javaHome + "/bin/jcmd";
        Jcmd jcmd = words -> {
            List<String> command = new ArrayList<>(List.of(jcmdPath, Long.toString(pid)));
            command.addAll(words);
            RemoteResult result = machine.run(ServerMachine.SHORT, command.toArray(String[]::new));
            if (!result.ok()) {
                throw new IOException("jcmd " + pid + " " + String.join(" ", words) + " on " + machine.destination() + ": "
                        + (result.output().isEmpty() ? "exit " + result.exitCode() : result.output().replaceAll("\\s*\\R\\s*", "; ")));
            }
            return result.stdout();
        };
        jcmd.startRecording(name, settings);
        return new RemoteFlightRecording(machine, jcmd, name, directory);
    }

    @Override
    public Duration stop(Path local) throws IOException {
        String there = directory + "/jfr-" + local.getFileName();
        jcmd.stopRecording(name, there);
        Duration ahead = clockAhead();
        Files.createDirectories(local.toAbsolutePath().getParent());
        RemoteResult copied = machine.target().copyBack(COPY, there, local);
        machine.run(ServerMachine.SHORT, "rm", "-f", there);
        if (!copied.ok()) {
            throw new IOException("could not copy " + there + " from " + machine.destination() + ": " + copied.output());
        }
        return ahead;
    }

    /** The server machine's clock minus this one's, read at the middle of one ssh round trip. */
    private Duration clockAhead() throws IOException {
        long sent = System.currentTimeMillis() * 1_000_000L;
        long sentNanos = System.nanoTime();
        RemoteResult date = machine.run(ServerMachine.SHORT, "date", "+%s%N");
        long middle = sent + (System.nanoTime() - sentNanos) / 2;
        if (!date.ok()) {
            throw new IOException("could not read the clock of " + machine.destination() + ": " + date.output());
        }
        return Duration.ofNanos(Long.parseLong(date.stdout().strip()) - middle);
    }
}
