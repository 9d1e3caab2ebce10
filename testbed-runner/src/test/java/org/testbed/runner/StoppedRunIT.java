package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run stopped from outside (SIGTERM, as a CI job's timeout or {@code kill} sends it to the runner
 * alone) leaves nothing running: the server, its memcached and the load driver's helpers stop with it.
 */
class StoppedRunIT {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRunStoppedBySigtermLeavesNoProcessBehind() throws Exception {
        Path run = Path.of("target", "stopped-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        Path log = Files.createTempFile("stopped-run", ".log");
        List<ProcessHandle> started = List.of();
        Process runner = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                RunnerJar.JAR.toString(), "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx", "--scenarios", "mix",
                "--concurrency", "8", "--duration", "60s", "--warmup", "1s", "--repeat", "1", "--iterations", "1", "--out", run.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            // Wait until the step is under way: memcached and the server are both children by then.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.readString(log, StandardCharsets.UTF_8).contains("warm-up mix") && System.nanoTime() < deadline) {
                assertThat(runner.isAlive()).as("the run, still going:\n" + Files.readString(log)).isTrue();
                Thread.sleep(200);
            }
            started = runner.descendants().toList();
            assertThat(started).as("memcached and the server, started by the run").hasSizeGreaterThanOrEqualTo(2);

            runner.destroy(); // SIGTERM to the runner only
            assertThat(runner.waitFor(30, TimeUnit.SECONDS)).as("the runner stops").isTrue();
            for (ProcessHandle p : started) {
                assertThat(p.onExit().get(15, TimeUnit.SECONDS).isAlive()).as("%s, started by the run", p.info().command())
                        .isFalse();
            }
            // One line on the way out: nothing was measured yet (the 60 s window was still open), how to start again.
            assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains("stopped before any window was measured: nothing kept in "
                    + run).contains("to start again: ./testbed run --variants vertx --scenarios mix").doesNotContain("--out " + run);
        } finally {
            // Whatever the outcome, nothing of this test's run survives it (orphans are no descendants any more).
            runner.descendants().forEach(ProcessHandle::destroyForcibly);
            started.forEach(ProcessHandle::destroyForcibly);
            runner.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }
}
