package org.testbed.runner.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.ssh.RemoteResult;

/**
 * A server on the server's machine, profiled there: async-profiler's library for that machine's
 * arch is copied next to the variant once, loaded into the server by the JDK's {@code jcmd
 * PID JVMTI.agent_load} (what the attach API does here), and the recording it writes there is
 * brought back over ssh and removed there; the pages are drawn here.
 */
final class RemoteProfiled implements Flamegraphs.Profiled {
    private static final String LIBRARY = "libasyncProfiler.so";
    /** A jar-sized copy over a slow link. */
    private static final Duration COPY = Duration.ofMinutes(5);

    private final ServerMachine machine;
    private final String directory;
    private final long pid;
    private final String jcmd;
    private final String arch;
    private boolean copied;

    /**
     * @param directory the variant's directory there, where the library and the files go
     * @param javaHome the server's JDK there, whose {@code bin/jcmd} loads the profiler
     * @param arch the server machine's {@code uname -m}
     */
    RemoteProfiled(ServerMachine machine, String directory, long pid, String javaHome, String arch) {
        this.machine = machine;
        this.directory = directory;
        this.pid = pid;
        this.jcmd = javaHome + "/bin/jcmd";
        this.arch = arch;
    }

    @Override
    public void load(String arguments) throws IOException {
        copyLibrary();
        // Quoted for jcmd's own parser, which would read the '=' of "event=cpu" as one of its options.
        RemoteResult loaded = machine.run(ServerMachine.SHORT, jcmd, Long.toString(pid), "JVMTI.agent_load",
                directory + "/" + LIBRARY, "\"" + arguments + "\"");
        // jcmd exits 0 when it reached the JVM; the agent's own result is its "return code".
        if (!loaded.ok() || !loaded.stdout().contains("return code: 0")) {
            throw new IOException("async-profiler '" + arguments + "' failed in " + pid + " on " + machine.destination()
                    + ": " + (loaded.output().isEmpty() ? "exit " + loaded.exitCode() : loaded.output().replaceAll("\\s*\\R\\s*", "; ")));
        }
    }

    @Override
    public String writePath(Path local) {
        return directory + "/flame-" + local.getFileName();
    }

    @Override
    public void fetch(Path local) throws IOException {
        String there = writePath(local);
        // base64: the recording is binary (JFR) and ssh's output is read as text.
        RemoteResult file = machine.run(COPY, "base64", "-w0", there);
        if (!file.ok()) {
            throw new IOException("could not read " + there + " on " + machine.destination() + ": " + file.output());
        }
        Files.createDirectories(local.toAbsolutePath().getParent());
        Files.write(local, Base64.getDecoder().decode(file.stdout().strip()));
        machine.run(ServerMachine.SHORT, "rm", "-f", there);
    }

    /** The library for that machine's arch, copied once per variant directory (a test -f spares the copy). */
    private void copyLibrary() throws IOException {
        if (copied || machine.run(ServerMachine.SHORT, "test", "-f", directory + "/" + LIBRARY).ok()) {
            copied = true;
            return;
        }
        if (!machine.run(ServerMachine.SHORT, "test", "-x", jcmd).ok()) {
            throw new IOException("no jcmd at " + jcmd + " on " + machine.destination() + " (a JRE without the JDK's"
                    + " tools?): install a full JDK there or give --server-java of one");
        }
        Path dir = Files.createTempDirectory("testbed-profiler");
        try {
            Path library = Flamegraphs.extract(dir, arch);
            RemoteResult copy = machine.target().copyAs(COPY, library, directory + "/" + LIBRARY);
            if (!copy.ok()) {
                throw new IOException("could not copy async-profiler to " + machine.destination() + ": " + copy.output());
            }
            copied = true;
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(dir);
        }
    }
}
