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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.testbed.arm64.Arm64Sysroot;
import org.testbed.arm64.EmulatedArm64Jvm;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.variant.VariantManifest;

/**
 * The study's workflow, x86_64 against arm64, end to end on one x86_64 machine: {@code run
 * --server-host} against an "arm64 host", a network namespace ({@link NamespaceHost}) whose
 * {@code java} is Debian's arm64 OpenJDK under QEMU's user-mode emulator ({@link EmulatedArm64Jvm},
 * given with {@code --server-java}); the same command against an x86_64 namespace host with the
 * machine's own JDK; then {@code compare} of the two.
 *
 * <p>Checked: environment.json of the arm64 run says the machine is x86_64 ({@code uname -m}) and its
 * server's JVM aarch64 ({@code os.arch}), emulated (by the program its process runs, the emulator),
 * and its rows say aarch64; the x86_64 run says x86_64 and nothing of emulation; the readings an
 * emulated server cannot give honestly (perf's counts, which would be the emulator's; the flame
 * graph, whose jcmd is an aarch64 program) are absent with their reason, while /proc, hsperfdata and
 * schedstat are read; the report and the compare page and console say aarch64 against x86_64 and
 * carry the caveat that emulated figures are mechanics, not performance. Bounded: one variant, one
 * scenario, one fork of three short samples a side; the emulated JVM starts in 10 to 40 s.
 *
 * <p>Needs what {@link RemoteRunIT} needs, and qemu-aarch64-static with the arm64 JRE cached by
 * {@link Arm64Sysroot} (built on first use; {@code ./testbed test} installs both as root): without
 * the emulator or a JRE the test is skipped, with the reason.
 */
@TestMethodOrder(OrderAnnotation.class)
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class EmulatedArm64RunIT {
    private static final String VARIANT = "vertx";
    private static final long COMMAND_LIMIT_SECONDS = 240;
    private static final long CLEAN_UP_SECONDS = 45;
    private static final String CAVEAT = "mechanics, not performance";

    private static Path work;
    private static NamespaceHost arm64;
    private static NamespaceHost x86;
    private static Path emulatedJava;

    @BeforeAll
    static void createTheTwoHosts() throws Exception {
        EmulatedArm64Jvm.Availability jvm = EmulatedArm64Jvm.locate(Arm64Sysroot.inUserCache(), System.out);
        if (jvm instanceof EmulatedArm64Jvm.Missing missing) {
            System.out.println("testbed: EmulatedArm64RunIT skipped: " + missing.reason());
            Assumptions.abort("no emulated arm64 JVM on this machine: " + missing.reason());
        }
        assertThat(System.getProperty("user.name")).as("the user: creating a network namespace needs root").isEqualTo("root");
        VariantManifest manifest = VariantManifest.load(RunnerJar.ROOT.resolve(VariantManifest.FILE_NAME));
        assertThat(manifest.find(VARIANT).jarIn(RunnerJar.ROOT)).as("the %s jar, packaged before this test", VARIANT).isRegularFile();
        NamespaceHost.removeLeftovers(); // of a crashed run only: a test beside this one keeps its own
        work = Files.createTempDirectory("arm64-run-it", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (String key : List.of("host_key", "client_key")) {
            exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "arm64-run-it-" + key, "-f", work.resolve(key).toString());
        }
        Files.copy(work.resolve("client_key.pub"), work.resolve("authorized_keys"));
        StringBuilder knownHosts = new StringBuilder();
        // Each host its own directory: its sshd's configuration, pid and log, and its java.
        arm64 = NamespaceHost.create(Files.createDirectories(work.resolve("arm64")));
        knownHosts.append(arm64.startSshd(work.resolve("host_key"), work.resolve("authorized_keys")));
        x86 = NamespaceHost.create(Files.createDirectories(work.resolve("x86")));
        knownHosts.append(x86.startSshd(work.resolve("host_key"), work.resolve("authorized_keys")));
        Files.writeString(work.resolve("known_hosts"), knownHosts);
        emulatedJava = arm64.java(((EmulatedArm64Jvm.Available) jvm).jvm().javaCommand());
    }

    @AfterAll
    static void removeEverything() throws Exception {
        NamespaceHost.closeAll(work, arm64, x86);
    }

    @Test
    @Order(1)
    void theArm64HostRecordsAnEmulatedAarch64ServerAndLeavesOutWhatEmulationFalsifies() throws Exception {
        Path out = work.resolve("arm64-run");
        // --flamegraph too, to show that an emulated server is measured without one, and says why.
        RunnerJar.Outcome run = run(arm64, out, "--server-java", emulatedJava.toString(), "--flamegraph");
        assertThat(run.exitCode()).as("finished with one problem, the flame graph not taken\n" + run.output()).isEqualTo(3);
        assertThat(run.output()).contains("on vm (aarch64, emulated on x86_64 by ").contains("qemu-aarch64");

        JsonNode server = environment(out).path("server_machine");
        assertThat(server.path("arch").asText()).as("the machine's uname -m").isEqualTo("x86_64");
        assertThat(server.path("jdks").path(0).path("os_arch").asText()).as("the server JVM's os.arch").isEqualTo("aarch64");
        JsonNode emulation = server.path("emulation");
        assertThat(emulation.path("jvm_arch").asText()).isEqualTo("aarch64");
        assertThat(emulation.path("machine_arch").asText()).isEqualTo("x86_64");
        assertThat(emulation.path("executable").asText()).as("what the kernel runs for the server: the emulator")
                .endsWith("/" + EmulatedArm64Jvm.EMULATOR);
        assertThat(emulation.path("caveat").asText()).contains(CAVEAT);

        List<ResultRow> rows = ResultsCsv.read(out.resolve(ResultsCsv.FILE));
        assertThat(rows).as("one step").hasSize(1);
        assertThat(SamplesCsv.TABLE.read(out.resolve(SamplesCsv.FILE))).as("its samples, enough for compare's interval").hasSize(3);
        for (ResultRow row : rows) {
            assertThat(row.origin().arch()).as("the arch results.csv names: the server's code's").isEqualTo("aarch64");
            assertThat(row.throughput().requests()).isPositive();
            assertThat(row.throughput().errors()).isZero();
            assertThat(row.server().cpuMsPerReq()).as("the emulated process's CPU, read in the namespace's /proc").isPositive();
        }
        // Readings that stay true under emulation are taken; those that would be the emulator's are absent, with why.
        String raw = Files.readString(out.resolve("raw").resolve(VARIANT).resolve("journey-c0004-i1.txt"));
        assertThat(raw).contains("server GC (hsperfdata)").contains("server run-queue wait (/proc/PID/task/*/schedstat");
        for (CounterRecord counted : CountersCsv.TABLE.read(out.resolve(CountersCsv.FILE))) {
            assertThat(counted.unavailable()).contains("not counted: the server's JVM is aarch64, emulated on x86_64")
                    .contains("the emulator's x86_64 instructions");
        }
        assertThat(out.resolve("flame").resolve(VARIANT)).as("no flame graph of an emulated server").doesNotExist();
        assertThat(environment(out).path("run").path("problems")).extracting(JsonNode::asText)
                .containsExactly(VARIANT + " flame graphs: not profiled: the server's JVM is aarch64, emulated on x86_64 by "
                        + emulation.path("executable").asText() + "; its JDK's jcmd, which loads the profiler, is an aarch64"
                        + " program that machine runs only through the emulator, and the proportions of an emulated run are"
                        + " the emulator's, not an aarch64 machine's");
        assertThat(Files.readString(out.resolve("report.html"))).as("the report's caveat").contains("\"emulation_note\"")
                .contains(CAVEAT);
        assertNothingLeftButSshd(arm64);
    }

    @Test
    @Order(2)
    void theX86HostRecordsANativeX8664Server() throws Exception {
        Path out = work.resolve("x86-run");
        RunnerJar.Outcome run = run(x86, out);
        assertThat(run.exitCode()).as(run.output()).isZero();
        JsonNode server = environment(out).path("server_machine");
        assertThat(server.path("arch").asText()).isEqualTo("x86_64");
        assertThat(server.path("jdks").path(0).path("os_arch").asText()).isEqualTo("x86_64");
        assertThat(server.has("emulation")).as("no emulation recorded for a native JVM").isFalse();
        assertThat(ResultsCsv.read(out.resolve(ResultsCsv.FILE))).hasSize(1).allMatch(r -> r.origin().arch().equals("x86_64"));
        assertThat(SamplesCsv.TABLE.read(out.resolve(SamplesCsv.FILE))).hasSize(3);
        assertThat(Files.readString(out.resolve("report.html"))).doesNotContain(CAVEAT);
        assertNothingLeftButSshd(x86);
    }

    @Test
    @Order(3)
    void compareSaysX8664AgainstEmulatedAarch64WithTheCaveat() throws Exception {
        Path a = work.resolve("x86-run");
        Path b = work.resolve("arm64-run");
        Path page = work.resolve("compare.html");
        RunnerJar.Outcome compare = RunnerJar.call(60, "compare", a.toString(), b.toString(), "--out", page.toString());
        System.out.println("$ testbed compare " + a + " " + b + "\n" + compare.output().indent(2));
        assertThat(compare.exitCode()).as(compare.output()).isZero();
        List<String> lines = compare.output().lines().toList();
        assertThat(lines.get(0)).startsWith("A: x86_64; server machine ");
        assertThat(lines.get(1)).startsWith("B: aarch64, emulated on x86_64 by ").contains(EmulatedArm64Jvm.EMULATOR);
        assertThat(lines.get(2)).isEqualTo("servers of different archs: x86_64 (A) against aarch64 (B)");
        assertThat(lines.get(3)).startsWith("CAVEAT B: the server's aarch64 JVM was emulated on an x86_64 machine").contains(CAVEAT);
        assertThat(compare.output()).contains("matched 1 step(s)");

        String html = Files.readString(page);
        assertThat(html).contains("\"arch\":\"x86_64\"").contains("\"arch\":\"aarch64\"")
                .contains("aarch64, emulated on x86_64 by ").contains("\"emulation_notes\"").contains(CAVEAT);
    }

    private static JsonNode environment(Path out) throws IOException {
        return new ObjectMapper().readTree(out.resolve("environment.json").toFile());
    }

    /**
     * The one command both hosts are measured with: one variant, the CRUD journey (no preload, which
     * under emulation takes longer than the samples), one fork of three 2 s samples, perf counters.
     */
    private static RunnerJar.Outcome run(NamespaceHost host, Path out, String... more) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("run", "--root", RunnerJar.ROOT.toString(), "--variants", VARIANT,
                "--scenarios", "journey", "--concurrency", "4", "--duration", "2s", "--warmup", "2s", "--repeat", "1",
                // Three windows, counted below: a window measured again on a slow machine is MachineSpeedRunIT's subject.
                "--iterations", "3", "--slow-machine", "0", "--counters", "--run-id", out.getFileName().toString(),
                "--out", out.toString(), "--server-host", "root@" + host.address,
                "--identity", work.resolve("client_key").toString(),
                "--ssh-option", "UserKnownHostsFile=" + work.resolve("known_hosts"), "--ssh-option", "StrictHostKeyChecking=yes",
                "--server-dir", work.resolve(host.namespace + "-vm").toString()));
        args.addAll(Arrays.asList(more));
        long started = System.nanoTime();
        RunnerJar.Outcome outcome = RunnerJar.call(COMMAND_LIMIT_SECONDS, args.toArray(String[]::new));
        System.out.println("$ testbed " + String.join(" ", args) + "   (" + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)
                + " s)\n" + outcome.output().indent(2));
        return outcome;
    }

    /** Waits for the run's remote side to finish stopping, then: nothing but sshd runs in the namespace (no emulator left). */
    private static void assertNothingLeftButSshd(NamespaceHost host) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLEAN_UP_SECONDS);
        List<String> left = others(host);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(250);
            left = others(host);
        }
        assertThat(left).as("processes left in " + host.namespace + " (besides sshd)").isEmpty();
    }

    private static List<String> others(NamespaceHost host) throws Exception {
        return host.processes().stream().filter(p -> !p.split(" ", 2)[1].startsWith("sshd")).toList();
    }

    private static void exec(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    }
}
