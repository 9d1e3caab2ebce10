package org.testbed.runner;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another process busy on one CPU while a test runs, as a CI machine's neighbour would be: a
 * shell's empty loop, pinned to {@code cpu} with taskset and bounded by {@code timeout} so that it
 * ends by itself even if the test's JVM is killed. Shared with the run's load driver and memcached
 * on the load CPU of a 2-CPU machine, it takes about a third of the machine.
 */
final class BackgroundLoad implements AutoCloseable {
    private final Process process;

    private BackgroundLoad(Process process) {
        this.process = process;
    }

    /** Starts the loop on {@code cpu}, for at most {@code limitSeconds}. */
    static BackgroundLoad onCpu(int cpu, long limitSeconds) throws IOException {
        List<String> command = List.of("timeout", Long.toString(limitSeconds), "taskset", "-c", Integer.toString(cpu),
                "sh", "-c", "while :; do :; done");
        return new BackgroundLoad(new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
    }

    /** The CPU the runner's default pinning gives the load driver: the last one this process may use. */
    static int loadCpu() {
        return Runtime.getRuntime().availableProcessors() - 1;
    }

    boolean running() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
