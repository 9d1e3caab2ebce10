package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runner.counters.PerfStat;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.variant.VariantManifest;

/**
 * {@code run --server-host} for real, against a second host that exists only on this machine: a
 * network namespace ({@link NamespaceHost}) with a veth pair on a private /30, an sshd in it, and
 * (started by the run, on the namespace's loopback) memcached. The packaged runner deploys two
 * variants there and measures them from this side: the load goes only to the namespace's address.
 *
 * <p>Checked: both variants' rows, with a server CPU per request read in the namespace's
 * {@code /proc}, {@code perf stat} counts and a flame graph taken there; environment.json with
 * both machines and the network path; nothing left running in the namespace after the run. Then
 * the errors, each in one line: a wrong key, a java too old there; and the runner stopped with
 * SIGTERM mid-run, after which nothing may run there. Then the loss: every sshd of
 * the namespace killed in the middle of a run, which must stop with the steps done kept, the step
 * named, no stack trace, and (by the run's lifeline) no process left in the namespace. Everything
 * is removed in {@link #removeEverything()}, whatever happened, and leftovers of a crashed earlier
 * run at the start. Needs root (namespaces), iproute2, sshd, ssh, ssh-keygen and memcached:
 * without them it fails.
 */
@TestMethodOrder(OrderAnnotation.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RemoteRunIT {
    private static final List<String> VARIANTS = List.of("vertx", "servlet-jetty-async");
    private static final long COMMAND_LIMIT_SECONDS = 200;
    /** After a run, the time its remote side may take to stop a server (the launcher waits up to 20 s). */
    private static final long CLEAN_UP_SECONDS = 45;

    private static Path work;
    private static NamespaceHost host;

    @BeforeAll
    static void createTheSecondHost() throws Exception {
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("ip", "ssh", "scp", "ssh-keygen", "memcached")) {
            if (which(tool) == null && !Files.isExecutable(Path.of("/usr/sbin", tool)) && !Files.isExecutable(Path.of("/usr/bin", tool))) {
                missing.add(tool);
            }
        }
        if (which("sshd") == null && !Files.isExecutable(Path.of("/usr/sbin/sshd"))) {
            missing.add("sshd");
        }
        assertThat(missing).as("tools this test needs (apt-get install iproute2 openssh-server openssh-client memcached)")
                .isEmpty();
        assertThat(System.getProperty("user.name")).as("the user: creating a network namespace needs root").isEqualTo("root");
        VariantManifest manifest = VariantManifest.load(RunnerJar.ROOT.resolve(VariantManifest.FILE_NAME));
        for (String variant : VARIANTS) {
            assertThat(manifest.find(variant).jarIn(RunnerJar.ROOT)).as("the %s jar, packaged before this test", variant)
                    .isRegularFile();
        }
        NamespaceHost.removeLeftovers();
        work = Files.createTempDirectory("remote-run-it", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (String key : List.of("host_key", "client_key")) {
            exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "remote-run-it-" + key, "-f", work.resolve(key).toString());
        }
        Files.copy(work.resolve("client_key.pub"), work.resolve("authorized_keys"));
        host = NamespaceHost.create(work);
        // The host key is known in advance and checked strictly: no trust on first use in the test.
        Files.writeString(work.resolve("known_hosts"), host.startSshd(work.resolve("host_key"), work.resolve("authorized_keys")));
    }

    @AfterAll
    static void removeEverything() throws Exception {
        NamespaceHost.closeAll(work, host);
    }

    @Test
    @Order(1)
    void twoVariantsDeployedInTheNamespaceAreMeasuredFromHere() throws Exception {
        Path out = work.resolve("run");
        RunnerJar.Outcome run = run(out, "--concurrency", "16", "--counters", "--flamegraph", "--jfr");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("server machine root@" + host.address);

        List<ResultRow> rows = ResultsCsv.read(out.resolve(ResultsCsv.FILE));
        assertThat(rows).extracting(ResultRow::variant).containsExactlyElementsOf(VARIANTS);
        for (ResultRow row : rows) {
            assertThat(row.throughput().requests()).as("requests of " + row.variant()).isPositive();
            assertThat(row.throughput().errors()).as("errors of " + row.variant()).isZero();
            assertThat(row.server().cpuMsPerReq()).as("server CPU ms per request of " + row.variant() + ", read in the namespace")
                    .isPositive();
            assertThat(row.server().rssMb()).as("server RSS of " + row.variant()).isPositive();
        }
        for (StepRecord step : StepsCsv.TABLE.read(out.resolve(StepsCsv.FILE))) {
            assertThat(step.server().cpusBusyPct()).as("the server machine's CPUs busy during " + step.key().variant()).isPositive();
            // The saturation readings came over ssh from the namespace: its threads' schedstat, its own TCP counters.
            assertThat(step.server().saturation().known()).as("saturation readings of " + step.key().variant()).isTrue();
            assertThat(step.server().saturation().involuntarySwitchesPerReq()).isNotNegative();
            assertThat(step.server().saturation().listenOverflows()).as("the namespace's own listen queues").isZero();
        }
        String raw = Files.readString(out.resolve("raw").resolve(VARIANTS.get(0)).resolve("mix-c0016.txt"));
        assertThat(raw).contains("server GC (hsperfdata)").contains("server run-queue wait (/proc/PID/task/*/schedstat");

        // perf stat ran in the namespace: software events need no PMU, so with perf there they are counted.
        List<CounterRecord> counters = CountersCsv.TABLE.read(out.resolve(CountersCsv.FILE));
        assertThat(counters).extracting(CounterRecord::variant).containsExactlyElementsOf(VARIANTS);
        for (CounterRecord c : counters) {
            if (PerfStat.find() == null) {
                assertThat(c.unavailable()).contains("perf is not installed on");
            } else {
                assertThat(c.perRequest().taskClockMs()).as("task-clock ms per request of " + c.variant() + ", counted there")
                        .isPositive();
            }
        }
        assertThat(out.resolve("counters").resolve(VARIANTS.get(0)).resolve("mix-c0016.txt")).isRegularFile();
        // The profile was recorded there as JFR (async-profiler loaded by jcmd), brought back whole
        // (binary, so through base64) and drawn here.
        for (String variant : VARIANTS) {
            Path flame = out.resolve("flame").resolve(variant);
            assertThat(flame.resolve("mix-c0016.html")).as("the flame graph of " + variant).isRegularFile();
            assertThat(flame.resolve("mix-c0016-heatmap.html")).as("its heat map").isNotEmptyFile();
            assertThat(Files.readString(flame.resolve("mix-c0016.collapsed"))).as("its samples").isNotBlank();
        }

        // The flight recording was started and stopped there by that JDK's jcmd and brought back by scp.
        List<JfrRecord> recorded = JfrCsv.TABLE.read(out.resolve(JfrCsv.FILE));
        assertThat(recorded).extracting(r -> r.key().variant()).containsExactlyElementsOf(VARIANTS);
        for (JfrRecord r : recorded) {
            assertThat(out.resolve(r.file())).as("the recording of " + r.key().variant()).isNotEmptyFile();
            assertThat(r.allocationMbPerS()).as("allocation of " + r.key().variant() + ", from its recording").isPositive();
            assertThat(r.windowS()).isPositive();
        }

        JsonNode env = new ObjectMapper().readTree(out.resolve("environment.json").toFile());
        assertThat(env.path("machine").path("role").asText()).isEqualTo("load");
        JsonNode server = env.path("server_machine");
        assertThat(server.path("role").asText()).isEqualTo("server");
        for (String field : List.of("host", "arch", "cpu_model", "kernel", "lscpu", "pinning")) {
            assertThat(server.path(field).asText()).as("server_machine." + field).isNotBlank();
        }
        assertThat(server.path("cpus").asInt()).isPositive();
        assertThat(server.path("jdks").path(0).path("version").asText()).as("the server's JDK").isNotBlank();
        JsonNode network = env.path("network_path");
        assertThat(network.path("load_interface").asText()).isEqualTo(host.hostSide + " mtu 1500");
        assertThat(network.path("load_machine_address_seen_by_server").asText()).isEqualTo(host.hostAddress);
        assertThat(network.path("server_interface").asText()).contains("mtu 1500");
        for (String variant : VARIANTS) {
            assertThat(network.path("health_round_trips").path(variant).path("median_ms").asDouble())
                    .as("health round trip to " + variant).isPositive();
        }
        assertThat(env.path("run").path("server_host").asText()).isEqualTo("root@" + host.address);

        assertNothingLeftButSshd("after a run that ended normally");
    }

    @Test
    @Order(2)
    void aWrongKeyIsAnAuthenticationFailureInOneLine() throws Exception {
        exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "remote-run-it-wrong", "-f", work.resolve("wrong_key").toString());
        List<String> args = arguments(work.resolve("wrong-key"), "--concurrency", "16");
        args.set(args.indexOf(work.resolve("client_key").toString()), work.resolve("wrong_key").toString());
        RunnerJar.Outcome run = RunnerJar.call(COMMAND_LIMIT_SECONDS, args.toArray(String[]::new));
        System.out.println(run.output());
        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("testbed: run: ssh authentication to root@" + host.address + " failed with key");
        assertNoStackTrace(run.output());
    }

    @Test
    @Order(2)
    void aJavaTooOldThereIsSaidAndNothingIsLeftRunning() throws Exception {
        // A "java" that reports version 11: the variants need 17.
        Path oldJava = work.resolve("old-java/bin/java");
        Files.createDirectories(oldJava.getParent());
        Files.writeString(oldJava, "#!/bin/sh\necho '    java.specification.version = 11' >&2\n");
        Files.setPosixFilePermissions(oldJava, PosixFilePermissions.fromString("rwxr-xr-x"));
        RunnerJar.Outcome run = run(work.resolve("old-java-run"), "--concurrency", "16", "--server-java", oldJava.toString());
        assertThat(run.exitCode()).as("no step measured\n" + run.output()).isEqualTo(1);
        assertThat(run.output()).contains("!! vertx: vertx needs a Java 17 or newer on").contains("(11)");
        assertNoStackTrace(run.output());
        assertNothingLeftButSshd("after a run whose variants could not start");
    }

    /**
     * The runner itself stopped (SIGTERM, as a CI timeout does) in the middle of a step: its ssh
     * session ends with it, and the session's remote side stops the server and memcached there.
     */
    @Test
    @Order(2)
    void aRunnerStoppedMidRunLeavesNoProcessThere() throws Exception {
        Path log = work.resolve("stopped.log");
        Process run = start(work.resolve("stopped"), log, "--concurrency", "4,8,16,32,64");
        try {
            awaitFirstStep(run, log);
            run.destroy();
            assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("the runner stops on SIGTERM").isTrue();
        } finally {
            run.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        System.out.println(Files.readString(log, StandardCharsets.UTF_8));
        assertNothingLeftButSshd("after the runner was stopped with SIGTERM");
    }

    @Test
    @Order(3)
    void sshdStoppedMidRunEndsTheRunCleanlyAndLeavesNoProcessThere() throws Exception {
        Path out = work.resolve("lost");
        Path log = work.resolve("lost.log");
        Process run = start(out, log, "--concurrency", "4,8,16,32,64");
        try {
            awaitFirstStep(run, log);
            host.killSshd();
            assertThat(run.waitFor(COMMAND_LIMIT_SECONDS, TimeUnit.SECONDS)).as("the run ends after losing the server").isTrue();
        } finally {
            run.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println(output);
        assertThat(run.exitValue()).as("exit status of a run that lost its server\n" + output).isNotZero();
        assertThat(output).contains("lost the connection to root@" + host.address).contains("during vertx mix")
                .contains("the steps measured so far are kept");
        assertNoStackTrace(output);
        List<ResultRow> rows = ResultsCsv.read(out.resolve(ResultsCsv.FILE));
        assertThat(rows).as("the steps done before the loss").isNotEmpty().allMatch(r -> r.variant().equals("vertx"));
        assertThat(out.resolve("report.html")).isRegularFile();
        assertThat(Files.readString(out.resolve("environment.json"))).contains("lost the connection");

        assertNothingLeftButSshd("after the run lost its ssh connection");
    }

    /** Waits until the run in the background has measured its first step. */
    private static void awaitFirstStep(Process run, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(COMMAND_LIMIT_SECONDS);
        while (run.isAlive() && !Files.readString(log).contains("[  1/") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(Files.readString(log)).as("the first step measured").contains("[  1/");
    }

    private static void assertNoStackTrace(String output) {
        assertThat(output.lines()).as("no stack trace").noneMatch(l -> l.contains("\tat ") || l.contains("Exception"));
    }

    /** Waits for the run's remote side to finish stopping, then: nothing but sshd runs in the namespace. */
    private static void assertNothingLeftButSshd(String when) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLEAN_UP_SECONDS);
        List<String> left = others();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(250);
            left = others();
        }
        assertThat(left).as("processes in the namespace " + when + " (besides sshd)").isEmpty();
    }

    private static List<String> others() throws Exception {
        return host.processes().stream().filter(p -> !p.split(" ", 2)[1].startsWith("sshd")).toList();
    }

    private static List<String> arguments(Path out, String... levels) {
        List<String> args = new ArrayList<>(List.of("run", "--root", RunnerJar.ROOT.toString(), "--variants",
                String.join(",", VARIANTS), "--scenarios", "mix", "--duration", "2s", "--warmup", "2s", "--repeat", "1", "--iterations", "1",
                "--run-id", "remote-it", "--out", out.toString(), "--server-host", "root@" + host.address,
                "--identity", work.resolve("client_key").toString(),
                "--ssh-option", "UserKnownHostsFile=" + work.resolve("known_hosts"), "--ssh-option", "StrictHostKeyChecking=yes",
                "--server-dir", work.resolve("vm").toString()));
        args.addAll(Arrays.asList(levels));
        return args;
    }

    private static RunnerJar.Outcome run(Path out, String... levels) throws IOException, InterruptedException {
        List<String> args = arguments(out, levels);
        RunnerJar.Outcome outcome = RunnerJar.call(COMMAND_LIMIT_SECONDS, args.toArray(String[]::new));
        System.out.println("$ testbed " + String.join(" ", args) + "\n" + outcome.output().indent(2));
        return outcome;
    }

    /** The runner in the background, its output into {@code log}, for a test that acts while it runs. */
    private static Process start(Path out, Path log, String... levels) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", RunnerJar.JAR.toString()));
        command.addAll(arguments(out, levels));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static Path which(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Path.of(dir, tool);
            }
        }
        return null;
    }

    private static void exec(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    }
}
