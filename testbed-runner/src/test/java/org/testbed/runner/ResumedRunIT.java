package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;

/**
 * A run killed with SIGKILL half-way (its second pass started) leaves no process behind, and
 * {@code run --resume} measures only what it had not finished, with the run's own options: the
 * first pass's windows are kept, the second pass is measured whole, and every step ends with its two
 * forks. A folder whose build differs, a run that finished, and another option beside --resume are
 * refused in one line.
 */
class ResumedRunIT {

    @Test
    @Timeout(value = 420, unit = TimeUnit.SECONDS)
    void aRunKilledInItsSecondPassIsResumedToItsEnd() throws Exception {
        Path run = Path.of("target", "resumed-run").toAbsolutePath();
        Path otherBuild = Path.of("target", "resumed-run-other-build").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        RunnerJar.deleteRecursively(otherBuild);
        Path log = Files.createTempFile("resumed-run", ".log");
        List<ProcessHandle> started = List.of();
        Process runner = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                RunnerJar.JAR.toString(), "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx,jetty-handler",
                "--scenarios", "mix", "--concurrency", "8", "--duration", "1s", "--warmup", "1s", "--forks", "2",
                "--iterations", "1", "--out", run.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
            while (!Files.readString(log, StandardCharsets.UTF_8).contains("== pass 2/2") && System.nanoTime() < deadline) {
                assertThat(runner.isAlive()).as("the run, still going:\n" + Files.readString(log)).isTrue();
                Thread.sleep(100);
            }
            started = runner.descendants().toList();
            runner.destroyForcibly(); // SIGKILL: no shutdown hook runs; the reaper stops what the runner started
            assertThat(runner.waitFor(10, TimeUnit.SECONDS)).isTrue();
            for (ProcessHandle p : started) {
                assertThat(p.onExit().get(20, TimeUnit.SECONDS).isAlive()).as("%s, started by the killed run",
                        p.info().command()).isFalse();
            }
        } finally {
            runner.descendants().forEach(ProcessHandle::destroyForcibly);
            started.forEach(ProcessHandle::destroyForcibly);
            runner.destroyForcibly();
            Files.deleteIfExists(log);
        }
        copy(run, otherBuild);
        Path env = otherBuild.resolve("environment.json");
        Files.writeString(env, Files.readString(env).replaceFirst("\"build\" ?: ?\"sha256:[0-9a-f]+\"",
                "\"build\":\"sha256:0000000000000000\""));

        RunnerJar.Outcome refusedBuild = RunnerJar.call(120, "run", "--root", RunnerJar.ROOT.toString(), "--resume",
                otherBuild.toString());
        assertThat(refusedBuild.exitCode()).as(refusedBuild.output()).isEqualTo(2);
        assertThat(refusedBuild.output().strip()).startsWith("testbed: --resume " + otherBuild)
                .contains("measured with another build (sha256:0000000000000000, now sha256:").hasLineCount(1);
        RunnerJar.Outcome refusedOption = RunnerJar.call(120, "run", "--root", RunnerJar.ROOT.toString(), "--resume",
                run.toString(), "--forks", "3");
        assertThat(refusedOption.exitCode()).as(refusedOption.output()).isEqualTo(2);
        assertThat(refusedOption.output()).contains("drop --forks");

        String resumed = RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--resume", run.toString());

        assertThat(resumed).containsPattern("resuming " + run + ": 2 session\\(s\\) measured to their end kept \\(2 window\\(s\\)\\),"
                + " [0-9]+ window\\(s\\) of sessions cut half-way or failed dropped")
                .contains("planned: 2 server start(s)").contains("== pass 2/2").doesNotContain("== pass 1/2");
        List<SampleRecord> samples = SamplesCsv.TABLE.read(run.resolve(SamplesCsv.FILE));
        assertThat(samples).extracting(s -> s.key().variant() + " " + s.repeat())
                .containsExactlyInAnyOrder("vertx 1", "jetty-handler 1", "vertx 2", "jetty-handler 2");
        List<StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE));
        assertThat(steps).hasSize(2).allSatisfy(s -> assertThat(s.repeats().count()).isEqualTo(2));
        assertThat(run.resolve("report.html")).isRegularFile();

        RunnerJar.Outcome again = RunnerJar.call(120, "run", "--root", RunnerJar.ROOT.toString(), "--resume", run.toString());
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.output()).contains("the run finished (at ").contains("nothing to measure");
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }
}
