package org.testbed.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every benchmark of {@code benchmarks.jar} runs once, as a user runs the jar: one fork, no warm-up,
 * one 1-second iteration, average time, the smallest payload, {@code ServerBenchmark} on a
 * thread-per-request Tomcat and the Vert.x event loop only (both quick to start; Spring Boot takes
 * ~15 s per trial on 2 cores, and the contract suite covers every variant), and {@code -foe true}
 * so that any benchmark that throws (a wrong answer from a variant, a variant or memcached that does
 * not start) fails the run. The numbers mean nothing; that every benchmark produced one is the test,
 * read from JMH's JSON result. Both node counts of StoreBenchmark run: consistent hashing is a code
 * path; the store without its reply check ({@code replyCheck=off}) does not, it is the same store
 * with one setting less, so it is left out to keep the run short. Loopback only (the benchmarks start their own memcached and variants there); the run and
 * everything it started are killed after {@link #LIMIT_SECONDS}.
 */
class BenchmarkSmokeIT {
    private static final long LIMIT_SECONDS = 400;
    private static final String VARIANTS = System.getProperty("testbed.smoke.variants", "servlet-tomcat-sync,vertx");
    private static final Path JAR = Path.of("target", "benchmarks.jar").toAbsolutePath();
    private static final Path RESULT = Path.of("target", "benchmark-smoke.json").toAbsolutePath();
    private static final Path LOG = Path.of("target", "benchmark-smoke.log").toAbsolutePath();

    @Test
    @Timeout(value = LIMIT_SECONDS + 60, unit = TimeUnit.SECONDS)
    void everyBenchmarkRunsOnceAndScores() throws Exception {
        assertThat(JAR).as("benchmarks.jar (built in the package phase)").isRegularFile();
        Set<String> expected = listed();
        assertThat(expected).as("benchmarks that benchmarks.jar lists").isNotEmpty();
        Files.deleteIfExists(RESULT);

        long started = System.nanoTime();
        int exit = java(LOG, LIMIT_SECONDS, "-f", "1", "-wi", "0", "-i", "1", "-r", "1s", "-bm", "avgt", "-foe", "true",
                "-p", "variant=" + VARIANTS, "-p", "payload=100", "-p", "replyCheck=on", "-rf", "json", "-rff", RESULT.toString());
        System.out.printf("jmh smoke: %d benchmarks in %.0f s, exit %d, output %s%n", expected.size(),
                (System.nanoTime() - started) / 1e9, exit, LOG);
        assertThat(exit).as("JMH's exit status (a benchmark that threw fails it); output:%n%s", tail(LOG)).isZero();

        JsonNode results = new ObjectMapper().readTree(RESULT.toFile());
        assertThat(results.isArray()).as("JMH's JSON result is an array of runs").isTrue();
        Set<String> measured = new TreeSet<>();
        for (JsonNode run : results) {
            String name = run.path("benchmark").asText();
            double score = run.path("primaryMetric").path("score").asDouble(Double.NaN);
            assertThat(score).as("score of %s %s", name, run.path("params")).isPositive().isFinite();
            measured.add(name);
        }
        assertThat(measured).as("benchmarks with a result").containsAll(expected);
    }

    /** The benchmarks {@code benchmarks.jar -l} lists. */
    private static Set<String> listed() throws IOException, InterruptedException {
        Path out = Path.of("target", "benchmark-list.txt").toAbsolutePath();
        assertThat(java(out, 60, "-l")).as("benchmarks.jar -l").isZero();
        Set<String> names = new TreeSet<>();
        for (String line : Files.readAllLines(out)) {
            if (line.startsWith("org.testbed.bench.")) {
                names.add(line.strip());
            }
        }
        return names;
    }

    /** Runs {@code java -jar benchmarks.jar ARGS} from the checkout, output to {@code log}; its exit status. */
    private static int java(Path log, long limitSeconds, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(Repository.root().toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            assertThat(process.waitFor(limitSeconds, TimeUnit.SECONDS))
                    .as("benchmarks.jar %s ended within %d s; output:%n%s", args[0], limitSeconds, tail(log)).isTrue();
            return process.exitValue();
        } finally {
            // The forked benchmark JVM, and the variants and memcached it started, go too.
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }
}
