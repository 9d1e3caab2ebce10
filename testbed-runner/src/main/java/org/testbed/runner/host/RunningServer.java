package org.testbed.runner.host;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.proc.CompilerThreads;

/**
 * One started variant, wherever it runs: on this machine ({@link LocalServer}) or on the server's
 * machine over ssh ({@link RemoteServer}). The step code reads it the same way in both cases, with
 * the same methods: {@code /proc/PID/stat}, {@code /proc/PID/status}, its threads' {@code schedstat} and the JVM's hsperfdata file.
 */
public interface RunningServer extends AutoCloseable {

    /** The server's pid on the machine it runs on. */
    long pid();

    /** Where the load goes: {@code http(s)://ADDRESS:PORT}. */
    URI baseUri();

    boolean isAlive();

    /** CPU times, GC counters and memory of the server now. */
    ServerReading read() throws IOException;

    /**
     * Its JIT compiler threads' CPU and run-queue times so far, or null when not known; read every
     * second of a warm-up, so it must be cheap.
     */
    CompilerThreads compilers();

    /** The JDK it runs on, as its machine sees it. */
    JdkInfo jdk();

    /** Starts {@code perf stat} on its machine, attached to it; the counts are copied into {@code output}. */
    EventCounting countEvents(Path output) throws IOException;

    /**
     * Starts a JDK Flight Recorder recording {@code name} in its JVM with {@code settings} (the
     * arguments of {@code jcmd JFR.start} after the name), through its JDK's jcmd on its machine.
     */
    FlightRecording record(String name, List<String> settings) throws IOException;

    /** It, to profile with {@code flamegraphs}: attached here, or through jcmd on its machine. */
    Flamegraphs.Profiled profiled(Flamegraphs flamegraphs);

    /**
     * Its JVM's hsperfdata file on this machine, which the step reads a few times a second for GC
     * through the window; empty for a server on another machine (a read there is an ssh round trip)
     * or a JVM that publishes none.
     */
    default Optional<Path> localPerfData() {
        return Optional.empty();
    }

    /** The machine it runs on, as results.csv names it. */
    MachineLabel machine();

    @Override
    void close();
}
