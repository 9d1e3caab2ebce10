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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.variant.VariantManifest;

/**
 * {@code run --driver jmeter --load-hosts} for real: JMeter's distributed mode with two load hosts
 * made of network namespaces ({@link NamespaceHost}, each with its sshd), the controller and the
 * vertx variant on this machine. A namespace cannot reach this machine's loopback, so the variant
 * listens on the host side of the first namespace's veth ({@code --local-address}), which the second
 * namespace reaches through its default route to this machine; JMeter's controller takes the
 * engines' samples at the same address.
 *
 * <p>Checked: the row and its operations, the requests of both hosts adding up to the row's, the
 * percentiles read from every sample of both (the HdrHistogram's total count), each host's engine
 * CPU, JMeter's version in environment.json, and nothing left in either namespace (processes, files)
 * after the run. Then one host's sshd killed in the middle of a run: a clear error naming the host,
 * the steps done kept, nothing left running. Needs root, iproute2, sshd, ssh, ssh-keygen and
 * memcached: without them it fails.
 */
@TestMethodOrder(OrderAnnotation.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class JMeterLoadHostsIT {
    private static final long COMMAND_LIMIT_SECONDS = 200;
    /** After a run, the time the sessions there may take to stop their engines. */
    private static final long CLEAN_UP_SECONDS = 30;
    private static final Pattern HOST_REQUESTS = Pattern.compile("load host (\\d) (\\S+): requests=(\\d+) errors=(\\d+)"
            + " jmeter-server CPU (\\d+) ms");

    private static Path work;
    private static NamespaceHost first;
    private static NamespaceHost second;

    @BeforeAll
    static void createTwoLoadHosts() throws Exception {
        for (String tool : List.of("ip", "ssh", "scp", "ssh-keygen", "memcached", "tar")) {
            assertThat(which(tool)).as("%s, which this test needs (apt-get install iproute2 openssh-server openssh-client"
                    + " memcached tar)", tool).isTrue();
        }
        assertThat(System.getProperty("user.name")).as("the user: creating a network namespace needs root").isEqualTo("root");
        assertThat(VariantManifest.load(RunnerJar.ROOT.resolve(VariantManifest.FILE_NAME)).find("vertx").jarIn(RunnerJar.ROOT))
                .as("the vertx jar, packaged before this test").isRegularFile();
        work = Files.createTempDirectory("jmeter-hosts-it", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (String key : List.of("host_key", "client_key")) {
            exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "jmeter-hosts-it-" + key, "-f", work.resolve(key).toString());
        }
        Files.copy(work.resolve("client_key.pub"), work.resolve("authorized_keys"));
        Files.createDirectories(work.resolve("first"));
        Files.createDirectories(work.resolve("second"));
        first = NamespaceHost.create(work.resolve("first"));
        second = NamespaceHost.create(work.resolve("second"));
        first.routeToThisMachine();
        second.routeToThisMachine();
        String known = first.startSshd(work.resolve("host_key"), work.resolve("authorized_keys"))
                + second.startSshd(work.resolve("host_key"), work.resolve("authorized_keys"));
        Files.writeString(work.resolve("known_hosts"), known);
    }

    @AfterAll
    static void removeEverything() throws Exception {
        NamespaceHost.closeAll(work, first, second);
    }

    @Test
    @Order(1)
    void twoLoadHostsDriveAVariantHereAndTheirSamplesMergeIntoOneRow() throws Exception {
        Path out = work.resolve("run");
        List<String> arguments = arguments(out, "5");
        // One open-model step too: each engine runs the whole schedule at half the rate.
        arguments.addAll(List.of("--rate", "100"));
        RunnerJar.Outcome run = RunnerJar.call(COMMAND_LIMIT_SECONDS, arguments.toArray(String[]::new));
        System.out.println(run.output());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("load from JMeter's engines on root@" + first.address + ", root@" + second.address);

        List<ResultRow> rows = ResultsCsv.read(out.resolve(ResultsCsv.FILE));
        assertThat(rows).hasSize(2);
        List<StepRecord> steps = StepsCsv.TABLE.read(out.resolve(StepsCsv.FILE));
        ResultRow closed = rows.stream().filter(r -> r.concurrency() == 5).findFirst().orElseThrow();
        String closedRaw = assertHostsAddUp(out, closed, steps);
        assertThat(closedRaw).as("5 users divided over the hosts").contains("users 3 + 2 on 2 load hosts");

        ResultRow open = rows.stream().filter(r -> r.concurrency() == 0).findFirst().orElseThrow();
        String openRaw = assertHostsAddUp(out, open, steps);
        assertThat(openRaw).as("100 arrivals a second divided over the hosts").contains("arrivals at 50/s on each of 2 load hosts");
        // 3 s at 100/s: generous bounds, since a fresh JMeter may start its arrivals late and then catch up.
        assertThat(open.throughput().requests()).as("requests of the open step").isBetween(150L, 450L);

        JsonNode env = new ObjectMapper().readTree(out.resolve("environment.json").toFile());
        assertThat(env.path("tools").path("jmeter").asText()).startsWith("Apache JMeter 5.6.3 from ")
                .endsWith("on 2 load host(s): root@" + first.address + ", root@" + second.address);

        assertNothingLeft("after a run that ended normally");
    }

    @Test
    @Order(2)
    void aLoadHostLostMidRunStopsTheRunWithTheStepsDoneKept() throws Exception {
        Path out = work.resolve("lost");
        Path log = work.resolve("lost.log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", RunnerJar.JAR.toString()));
        command.addAll(arguments(out, "4,6,8,10,12"));
        Process run = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(COMMAND_LIMIT_SECONDS);
            while (run.isAlive() && !Files.readString(log).contains("[  1/") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(Files.readString(log)).as("the first step measured").contains("[  1/");
            second.killSshd();
            assertThat(run.waitFor(COMMAND_LIMIT_SECONDS, TimeUnit.SECONDS)).as("the run ends after losing a load host").isTrue();
        } finally {
            run.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println(output);
        assertThat(run.exitValue()).as("exit status of a run that lost a load host\n" + output).isNotZero();
        assertThat(output).contains("lost the connection to load host root@" + second.address).contains("during vertx mix")
                .contains("the steps measured so far are kept");
        assertThat(output.lines()).as("no stack trace").noneMatch(l -> l.contains("\tat ") || l.contains("Exception"));
        List<ResultRow> rows = ResultsCsv.read(out.resolve(ResultsCsv.FILE));
        assertThat(rows).as("the steps done before the loss").isNotEmpty().allMatch(r -> r.driver().equals("jmeter"));
        assertThat(out.resolve("report.html")).isRegularFile();

        assertNothingLeft("after the run lost a load host");
    }

    /**
     * The row of one step: sent by JMeter with no answer wrong (a few without an answer at all, on a
     * busy machine, and those cut at the window's end counted as unfinished), and its load hosts' requests, each read
     * from its own engine, adding up to the row's, whose histogram counts every one of them.
     */
    private static String assertHostsAddUp(Path out, ResultRow row, List<StepRecord> steps) throws Exception {
        assertThat(row.driver()).isEqualTo("jmeter");
        assertThat(row.throughput().requests()).isPositive();
        // Two JMeter engines and the variant on one busy machine: a request may miss its timeout, never get a wrong answer.
        assertThat(row.throughput().errors()).as("errors of " + row).isLessThanOrEqualTo(row.throughput().requests() / 20);
        assertThat(row.latency().p50Ms()).isLessThanOrEqualTo(row.latency().p99Ms());
        StepRecord step = steps.stream().filter(s -> s.key().equals(row.key())).findFirst().orElseThrow();
        String raw = Files.readString(out.resolve(step.files().raw()));
        assertThat(JMeterFailures.answered(raw)).as("answers the server got wrong (a 5xx, a status, a body)").isEmpty();
        assertThat(raw).contains("unfinished=");
        Matcher m = HOST_REQUESTS.matcher(raw);
        long sum = 0;
        List<String> hosts = new ArrayList<>();
        while (m.find()) {
            hosts.add(m.group(2));
            long requests = Long.parseLong(m.group(3));
            assertThat(requests).as("requests sent from " + m.group(2)).isPositive();
            assertThat(Long.parseLong(m.group(5))).as("CPU of the engine on " + m.group(2) + ", read there").isPositive();
            sum += requests;
        }
        assertThat(hosts).containsExactly("root@" + first.address, "root@" + second.address);
        assertThat(sum).as("the requests of both hosts").isEqualTo(row.throughput().requests());
        // One histogram of every sample of both hosts: its count is the row's requests.
        assertThat(raw).containsPattern("Total count\\s*=\\s*" + row.throughput().requests() + "]");
        return raw;
    }

    private static List<String> arguments(Path out, String levels) {
        return new ArrayList<>(Arrays.asList("run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--driver", "jmeter", "--scenarios", "mix", "--concurrency", levels, "--duration", "3s", "--warmup", "1s",
                "--forks", "1", "--iterations", "1", "--slow-machine", "0", "--run-id", "jmeter-hosts", "--out", out.toString(),
                "--load-hosts", "root@" + first.address + ",root@" + second.address, "--local-address", first.hostAddress,
                "--load-dir", work.resolve("load").toString(), "--identity", work.resolve("client_key").toString(),
                "--ssh-option", "UserKnownHostsFile=" + work.resolve("known_hosts"), "--ssh-option", "StrictHostKeyChecking=yes"));
    }

    /** Nothing but sshd runs in either namespace, and nothing of the run's is left in the load folder. */
    private static void assertNothingLeft(String when) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLEAN_UP_SECONDS);
        List<String> left = others();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(250);
            left = others();
        }
        assertThat(left).as("processes in the namespaces " + when + " (besides sshd)").isEmpty();
        Path load = work.resolve("load");
        if (Files.isDirectory(load)) {
            try (var files = Files.list(load)) {
                assertThat(files.toList()).as("the load hosts' folders " + when).isEmpty();
            }
        }
    }

    private static List<String> others() throws Exception {
        List<String> all = new ArrayList<>(first.processes());
        all.addAll(second.processes());
        return all.stream().filter(p -> !p.split(" ", 2)[1].startsWith("sshd")).toList();
    }

    private static boolean which(String tool) {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/usr/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static void exec(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    }
}
