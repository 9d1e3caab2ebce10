package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runfolder.report.Chromium;
import org.testbed.runfolder.timeline.SecondBySecond;

/**
 * A stall the run's headline figures average away, seen second by second: memcached is stopped
 * (SIGSTOP) for one second inside a measured window of vertx's mix, then resumed. The closed
 * model's users are all held by the stall, so its answers are lost, not deferred (an open model's
 * backlog would arrive in the next second, and a second's count might not dip); and with 128 users
 * the one answer each waited for the whole stall is more than 1 % of any second's answers, so the
 * second it ends in has a p99 of the stall wherever the stall falls across the seconds. The sample's
 * interval log must show it where it happened (a second of few answers, with a p99 near the
 * second the answers waited), and the report's through-time view must render it.
 */
class StallIT {
    private static final long PAUSE_MILLIS = 1000;

    @Test
    void aSecondOfStoppedMemcachedShowsInTheStepThroughTime() throws Exception {
        Path run = Path.of("target", "stall-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", RunnerJar.JAR.toString(), "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--scenarios", "mix", "--concurrency", "128", "--duration", "8s", "--warmup", "2s", "--repeat", "1",
                "--iterations", "1", "--run-id", "stall-run", "--out", run.toString()));
        StringBuilder output = new StringBuilder();
        try (MemcachedProcess memcached = MemcachedProcess.start()) {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put("MEMCACHED_SERVERS", memcached.address());
            Process runner = builder.start();
            try {
                // The warm-up's line comes right before the health check and the measured window (8 s):
                // stopped 3 s after it, memcached stalls inside the window whatever the health check takes.
                CompletableFuture<Long> stoppedAt = new CompletableFuture<>();
                Thread reader = new Thread(() -> follow(runner, output, memcached, stoppedAt), "runner-output");
                reader.start();
                assertThat(runner.waitFor(240, TimeUnit.SECONDS)).as("the run finished within 240 s:\n%s", output).isTrue();
                reader.join(TimeUnit.SECONDS.toMillis(10));
                assertThat(stoppedAt).as("memcached was stopped once in the window:\n%s", output).isCompleted();
                assertThat(runner.exitValue()).as("exit status of the run:\n%s", output).isZero();
            } finally {
                memcached.resume();
                runner.descendants().forEach(ProcessHandle::destroyForcibly);
                runner.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }

        Path hlog = run.resolve("raw/vertx/mix-c0128.hlog");
        List<SecondBySecond.Second> seconds = SecondBySecond.read(hlog, null).seconds();
        System.out.println("second by second: " + seconds.stream().map(s -> String.format("%.0f/s p99 %.1f ms", s.rps(), s.p99Ms())).toList());
        double[] rps = seconds.stream().mapToDouble(SecondBySecond.Second::rps).sorted().toArray();
        double median = rps[rps.length / 2];
        SecondBySecond.Second worst = seconds.stream().max(Comparator.comparingDouble(s -> Double.isNaN(s.p99Ms()) ? 0 : s.p99Ms())).orElseThrow();
        int at = seconds.indexOf(worst);
        // The answers that waited out the stop arrive in the second it ended: their p99 is near the pause.
        assertThat(worst.p99Ms()).isGreaterThan(0.5 * PAUSE_MILLIS).isLessThan(2.5 * PAUSE_MILLIS);
        // Throughput fell in the stall: a second's answers are missing from the one or two seconds it
        // spans, so the slowest second around it has half of the median second's or fewer.
        double slowest = seconds.subList(Math.max(0, at - 1), Math.min(seconds.size(), at + 2)).stream()
                .mapToDouble(SecondBySecond.Second::rps).min().orElseThrow();
        assertThat(slowest).isLessThan(0.6 * median);
        // Elsewhere the step is quicker: the median second's p99 is under half the stall's (not far under:
        // a server warmed up for 2 s on a busy machine has seconds of a few hundred ms too).
        double[] p99 = seconds.stream().mapToDouble(SecondBySecond.Second::p99Ms).filter(v -> !Double.isNaN(v)).sorted().toArray();
        assertThat(p99[p99.length / 2]).isLessThan(0.5 * worst.p99Ms());
        assertThat(run.resolve("raw/vertx/mix-c0128.gc.csv")).isNotEmptyFile();

        Path report = run.resolve("report.html");
        String view = Chromium.dumpDom(report, "#timeline=0");
        assertThat(view).contains("data-render=\"ok\"").contains("vertx mix c=128: through time")
                .contains("Highest p99: second " + at + ",").contains("data-kind=\"timeline\"");
        String page = Chromium.dumpDom(report);
        assertThat(page).contains("<h2 id=\"operations\">Per operation</h2>").contains("<td class=\"l \">GET</td>");
        Chromium.screenshot(report, "#timeline=0", run.resolve("stall-timeline.png"));
        assertThat(run.resolve("stall-timeline.png")).isNotEmptyFile();
    }

    /** Copies the runner's output and, 3 s after its warm-up line, stops memcached for the pause. */
    private static void follow(Process runner, StringBuilder output, MemcachedProcess memcached, CompletableFuture<Long> stoppedAt) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                System.out.println(line);
                synchronized (output) {
                    output.append(line).append('\n');
                }
                if (line.startsWith("   warm-up ") && !stoppedAt.isDone()) {
                    Thread.sleep(3000);
                    memcached.pause();
                    stoppedAt.complete(System.currentTimeMillis());
                    try {
                        Thread.sleep(PAUSE_MILLIS);
                    } finally {
                        memcached.resume();
                    }
                }
            }
        } catch (Exception e) {
            stoppedAt.completeExceptionally(e);
        }
    }
}
