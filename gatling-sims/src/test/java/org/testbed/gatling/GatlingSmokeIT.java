package org.testbed.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.variant.Jdks;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;
import org.testbed.variant.VariantProcess;

/**
 * Every simulation at smoke size (at most 10 s of load, 20 users, 40 req/s) against the
 * spring-tomcat jar started as a real process on loopback, with a real memcached on a free loopback
 * port: each must pass its own assertions, with requests and no errors in its results.csv as the
 * runner reads it, and the runner's {@code report} and {@code compare} must take a Gatling run
 * folder. Then memcached is stopped and MaxThroughput must fail by its assertions.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatlingSmokeIT {
    private static final String VARIANT = "spring-tomcat";
    private static final Duration START_LIMIT = Duration.ofSeconds(90);
    /** Per simulation run: ≤ 10 s of load, the preload, and a JVM start on a busy machine. */
    private static final Duration RUN_LIMIT = Duration.ofSeconds(120);
    private static final Path ROOT = Path.of(System.getProperty("testbed.root", "..")).toAbsolutePath().normalize();
    private static final Path RUNNER_JAR = Path.of(System.getProperty("testbed.runner.jar",
            ROOT.resolve("testbed-runner/target/testbed-runner.jar").toString()));
    private static final Path WORK = Path.of("target", "gatling-smoke").toAbsolutePath();

    private MemcachedProcess memcached;
    private VariantProcess server;
    private String target;
    /** One run id per simulation run: reusing one would make creates collide (409) with a previous run's keys. */
    private final String runId = "smoke" + Instant.now().getEpochSecond();
    private final List<String> table = new ArrayList<>();

    @BeforeAll
    void startMemcachedAndTheVariant() throws IOException {
        deleteRecursively(WORK); // each run folder is found as the one folder of its simulation
        Variant variant = VariantManifest.load(ROOT.resolve(VariantManifest.FILE_NAME)).find(VARIANT);
        Path java = Jdks.javaFor(variant.minJdk())
                .orElseThrow(() -> new IllegalStateException(VARIANT + ": " + Jdks.missing(variant.minJdk())));
        memcached = MemcachedProcess.start();
        try {
            server = VariantProcess.start(variant, ROOT, java, List.of("-Xmx256m"),
                    List.of("--host", "127.0.0.1", "--port", "0", "--memcached-servers", memcached.address()),
                    WORK.resolve(VARIANT + ".log"), START_LIMIT);
        } catch (IOException | RuntimeException e) {
            memcached.close();
            throw e;
        }
        target = server.baseUri().toString().replaceAll("/$", "");
        // Load goes to loopback only.
        assertThat(server.baseUri().getHost()).isIn("127.0.0.1", "::1", "[::1]");
    }

    @AfterAll
    void stopEverything() {
        table.forEach(System.out::println);
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (memcached != null) {
                memcached.close();
            }
        }
    }

    @Order(1)
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"RealisticUsers", "MaxThroughput", "Staircase", "ArrivalRate", "SlaCapacity"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void everySimulationPassesWithRequestsAndNoErrors(String simulation) throws Exception {
        GatlingRun.Outcome run = smokeRun(simulation, "pass");
        assertThat(run.exitCode()).as("%s's exit status (0: its assertions held); output:%n%s", simulation,
                GatlingRun.tail(run.log(), 30)).isZero();
        List<ResultRow> rows = run.rows();
        assertThat(rows).as("%s's results.csv rows", simulation).isNotEmpty();
        for (ResultRow row : rows) {
            assertThat(row.driver()).isEqualTo("gatling");
            assertThat(row.variant()).as("the variant, as the target's health check names it").isEqualTo(VARIANT);
            assertThat(row.throughput().errors()).as("%s errors at %s", simulation, row.key().level()).isZero();
        }
        assertThat(rows.stream().mapToLong(r -> r.throughput().requests()).sum()).as("%s requests", simulation).isPositive();
        // Each step by request name: its names' requests add up to its own.
        List<OperationRecord> operations = run.operations();
        for (ResultRow row : rows) {
            assertThat(operations.stream().filter(o -> o.key().equals(row.key())).mapToLong(OperationRecord::requests).sum())
                    .as("%s requests by name at %s", simulation, row.key().level()).isEqualTo(row.throughput().requests());
        }
        if (simulation.equals("MaxThroughput")) {
            assertThat(operations).extracting(OperationRecord::operation).as("the mix's request names")
                    .containsExactly("GET", "POST", "PUT", "DELETE");
        }
        note(simulation, rows, "");
    }

    @Order(2)
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void theRunnerReportsAndComparesGatlingRuns() throws Exception {
        Path folder = WORK.resolve("pass").resolve("MaxThroughput");
        Path run = Files.list(folder).filter(p -> Files.isRegularFile(p.resolve("results.csv"))).findFirst()
                .orElseThrow(() -> new AssertionError("no MaxThroughput run folder under " + folder));
        String report = runner(run.getParent(), "report", run.toString());
        assertThat(run.resolve("report.html")).isRegularFile();
        assertThat(Files.readString(run.resolve("report.html"))).contains(VARIANT);
        assertThat(report).contains("report.html");

        String compare = runner(run.getParent(), "compare", run.toString(), run.toString());
        assertThat(compare).contains("matched 1 step(s)");
        // One sample per step: the step is matched, its ratio is 1, and no verdict is claimed beyond the data.
        assertThat(Files.readString(run.resolve("compare.csv")))
                .contains(VARIANT + ",mix,c=20,rps,").contains("no noise estimate");
    }

    @Order(3)
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void withMemcachedStoppedMaxThroughputFailsByItsAssertions() throws Exception {
        memcached.close();
        GatlingRun.Outcome run = smokeRun("MaxThroughput", "memcached-stopped");
        assertThat(run.exitCode()).as("exit status of a run whose assertions failed; output:%n%s",
                GatlingRun.tail(run.log(), 30)).isEqualTo(GatlingRun.ASSERTIONS_FAILED);
        assertThat(Files.readString(run.log())).contains("percentage of failed events is less than or equal to");
        List<ResultRow> rows = run.rows();
        assertThat(rows.stream().mapToLong(r -> r.throughput().errors()).sum()).as("errors with memcached stopped").isPositive();
        note("MaxThroughput", rows, "memcached stopped: failed as expected");
    }

    private GatlingRun.Outcome smokeRun(String simulation, String phase) throws IOException, InterruptedException {
        long started = System.nanoTime();
        GatlingRun.Outcome run = GatlingRun.run(simulation, Map.of("target", target, "smoke", "true",
                        "runId", runId + "-" + simulation + "-" + phase, "injector", "smoke"),
                WORK.resolve(phase).resolve(simulation), RUN_LIMIT);
        System.out.printf(Locale.ROOT, "gatling smoke: %s (%s) exit %d in %.1f s, output %s%n", simulation, phase,
                run.exitCode(), (System.nanoTime() - started) / 1e9, run.log());
        return run;
    }

    private void note(String simulation, List<ResultRow> rows, String note) {
        long requests = rows.stream().mapToLong(r -> r.throughput().requests()).sum();
        long errors = rows.stream().mapToLong(r -> r.throughput().errors()).sum();
        double p99 = rows.stream().mapToDouble(r -> r.latency().p99Ms()).max().orElse(Double.NaN);
        table.add(String.format(Locale.ROOT, "%-15s %3d row(s) %9d requests %7d errors  worst p99 %8.3f ms  %s",
                simulation, rows.size(), requests, errors, p99, note));
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (var paths = Files.walk(directory)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** The runner's jar, as a user runs it: exit 0 within 120 s, or the test fails with its output. */
    private static String runner(Path workingDirectory, String... args) throws IOException, InterruptedException {
        assertThat(RUNNER_JAR).as("the runner jar (testbed-runner is built before this module)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", RUNNER_JAR.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(WORK, "runner-", ".log");
        Process p = new ProcessBuilder(command).directory(workingDirectory.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(out);
        System.out.println(output);
        assertThat(done).as("runner %s ended within 120 s", args[0]).isTrue();
        assertThat(p.exitValue()).as("runner %s exit status; output:%n%s", args[0], output).isZero();
        return output;
    }
}
