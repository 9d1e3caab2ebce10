package org.testbed.runfolder.environment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.EnvironmentFile;

/**
 * environment.json written from its records has the keys the report reads (report.js's
 * {@code envFacts} and the note above the charts), in the structure runs have always had, and reads
 * back into the same records; a partial file (an older run, a Gatling run) still reads.
 */
class EnvironmentRecordTest {
    @TempDir
    Path dir;

    static EnvironmentRecord twoMachineRun() {
        Map<String, List<String>> scenarios = new LinkedHashMap<>();
        scenarios.put("mix", List.of("c=16", "c=64"));
        scenarios.put("read", List.of("1000/s"));
        RunPlan plan = new RunPlan("r1", "2024-01-02T03:04:05Z", "quick", List.of("--quick"), scenarios, 5.5, 10, 2, 2, 3,
                "wrk", "plain", 200, 150, 512, 1000, 30, 90, List.of("-Xmx1g"), "sha256:0123456789abcdef");
        CounterSetup perf = new CounterSetup("/usr/bin/perf", "kernel.perf_event_paranoid=2", false,
                List.of("task-clock", "cycles"), Optional.empty()).ranOn("perf stat ran on the server's machine");
        RunSection run = RunSection.planned(plan, false)
                .onTwoMachines("two machines: the server on root@srv, the load from this machine", "root@srv")
                .withMemcached("127.0.0.1:11211", true)
                .finished("2024-01-02T04:00:00Z", 3355, Optional.of("async-profiler 4.6, cpu mode, event=cpu"), Optional.of(perf),
                        List.of("vertx: did not start"), List.of());
        MachineSection load = new MachineSection("load-host", "x86_64", 8, "AMD EPYC", "Linux 6.1", "Debian 12",
                new CpuGovernors(Map.of()), "MemTotal: 1000 kB", "Architecture: x86_64", 100, "2", Optional.empty(),
                Optional.empty());
        JdkSection jdk = new JdkSection("/opt/jdk/bin/java", "/opt/jdk", 21, "Eclipse Adoptium", "21.0.1+12",
                "OpenJDK 64-Bit Server VM", "-XX:+UseG1GC", "x86_64");
        EnvironmentRecord oneMachine = EnvironmentRecord.oneMachine(run,
                new PinningSection("0-3", "4-7", "4-7", "server on CPU 0-3, memcached on 4-7, load driver on 4-7", "[0, 1]",
                        Optional.empty()),
                load, List.of(jdk), new RunnerJvm("17.0.15", "Debian"), Map.of("jetty", "21.0.1+12"),
                new Tools("wrk 4.1.0", "memcached 1.6.18", true),
                List.of(new ManifestEntry("jetty", "jetty-app", "jetty-app/target/jetty-app.jar", "sync", 17, "Jetty")));
        MachineSection server = new MachineSection("srv", "aarch64", 4, "Neoverse-N1", "Linux 6.1", "Debian 12",
                new CpuGovernors(Map.of("cpu0", "performance")), "MemTotal: 2000 kB", "Architecture: aarch64", 100, "1",
                Optional.of("0-3"), Optional.empty()).withRole("server");
        return oneMachine.onTwoMachines(run, oneMachine.pinning().withServerMachine("not pinned by the runner"),
                load.withRole("load"),
                new ServerMachineSection(server, "not pinned by the runner", "/srv/testbed", "10.0.0.2:8080", List.of(jdk),
                        Optional.empty()),
                new NetworkPathSection("10.0.0.1", "eth0 mtu 1500", "eth0 mtu 1500",
                        Map.of("jetty", new RoundTrips("20 sequential GET /testbed/health", 0.1, 0.2, 0.9))));
    }

    @Test
    void readsBackIntoTheSameRecords() throws Exception {
        EnvironmentRecord env = twoMachineRun();
        Path file = dir.resolve(EnvironmentFile.NAME);
        EnvironmentFile.write(file, env);
        assertThat(EnvironmentFile.readRecord(file)).contains(env);
    }

    @Test
    void aPricedRunRecordsItsPriceAndShareAndReadsThemBack() throws Exception {
        PriceSection price = new PriceSection(0.0416, "--price-per-hour", 0.5,
                "the server was pinned to 1 of the machine's 2 CPUs (0)", "cost_per_million = ...", Optional.empty());
        EnvironmentRecord env = twoMachineRun().withPrice(Optional.of(price));
        Path file = dir.resolve(EnvironmentFile.NAME);
        EnvironmentFile.write(file, env);
        assertThat(EnvironmentFile.readRecord(file)).contains(env);
        JsonNode json = EnvironmentFile.read(file);
        assertThat(keys(json.path("price"))).containsExactly("price_per_hour", "source", "server_share", "share", "formula");
        assertThat(json.path("price").path("price_per_hour").asDouble()).isEqualTo(0.0416);
        // A later step of the run keeps it.
        assertThat(env.withRun(env.run()).price()).contains(price);
    }

    @Test
    void hasTheKeysTheReportReads() throws Exception {
        Path file = dir.resolve(EnvironmentFile.NAME);
        EnvironmentFile.write(file, twoMachineRun());
        JsonNode env = EnvironmentFile.read(file);
        for (String key : List.of("host", "cpu_model", "arch", "cpus", "kernel", "os", "cpu_governor", "lscpu")) {
            assertThat(env.path("machine").has(key)).as("machine." + key).isTrue();
        }
        for (String key : List.of("profile", "driver", "conditions", "duration_s", "warmup_s", "threads", "delay_ms",
                "memcached_servers", "memcached_started_by_runner", "wall_time_s", "flamegraph", "problems", "repeat",
                "iterations", "mixed_jdks", "saturation_pct")) {
            assertThat(env.path("run").has(key)).as("run." + key).isTrue();
        }
        assertThat(env.path("pinning").path("description").isTextual()).isTrue();
        for (String key : List.of("vendor", "version", "flags")) {
            assertThat(env.path("jdks").path(0).has(key)).as("jdks[0]." + key).isTrue();
        }
        assertThat(env.path("tools").has("wrk")).isTrue();
        assertThat(env.path("tools").has("memcached")).isTrue();
        assertThat(env.path("machine").path("cpu_governor").asText()).isEqualTo(CpuGovernors.ABSENT);
        assertThat(env.path("server_machine").path("cpu_governor").path("cpu0").asText()).isEqualTo("performance");
        assertThat(env.path("jdks").path(0).path("vmName").asText()).isEqualTo("OpenJDK 64-Bit Server VM");
    }

    /**
     * An aarch64 JVM emulated on an x86_64 server machine: server_machine.emulation says so and
     * reads back; the one-line description and the caveat say aarch64, emulated, mechanics.
     */
    @Test
    void anEmulatedServerRecordsTheEmulationAndItsCaveat() throws Exception {
        EnvironmentRecord native_ = twoMachineRun();
        ServerMachineSection server = native_.serverMachine().orElseThrow();
        EmulationSection emulation = new EmulationSection("aarch64", "x86_64", "/usr/bin/qemu-aarch64-static",
                EmulationSection.caveat("aarch64", "x86_64"));
        EnvironmentRecord emulated = new EnvironmentRecord(native_.run(), native_.pinning(), native_.machine(), native_.jdks(),
                native_.runnerJvm(), native_.variantJdks(), native_.tools(), native_.manifest(),
                Optional.of(new ServerMachineSection(server.facts(), server.pinning(), server.directory(), server.address(),
                        server.jdks(), Optional.of(emulation))), native_.networkPath(), native_.price());
        Path file = dir.resolve(EnvironmentFile.NAME);
        EnvironmentFile.write(file, emulated);

        JsonNode env = EnvironmentFile.read(file);
        assertThat(keys(env.path("server_machine").path("emulation"))).containsExactly("jvm_arch", "machine_arch",
                "executable", "caveat");
        assertThat(EnvironmentFile.readRecord(file).orElseThrow().serverMachine().orElseThrow().emulation()).contains(emulation);
        ServerPlatform platform = ServerPlatform.of(env);
        assertThat(platform.arch()).isEqualTo("aarch64");
        assertThat(platform.description()).startsWith("aarch64, emulated on x86_64 by /usr/bin/qemu-aarch64-static; server machine srv");
        assertThat(platform.caveat()).hasValueSatisfying(c -> assertThat(c).contains("mechanics, not performance"));

        EnvironmentFile.write(file, native_);
        assertThat(EnvironmentFile.read(file).path("server_machine").has("emulation")).as("absent when native").isFalse();
        assertThat(ServerPlatform.of(EnvironmentFile.read(file))).satisfies(p -> {
            assertThat(p.arch()).isEqualTo("aarch64");
            assertThat(p.caveat()).isEmpty();
        });
    }

    @Test
    void keepsTheStructureRunsHaveAlwaysHad() throws Exception {
        Path file = dir.resolve(EnvironmentFile.NAME);
        EnvironmentFile.write(file, twoMachineRun());
        JsonNode env = EnvironmentFile.read(file);
        assertThat(keys(env)).containsExactly("run", "pinning", "machine", "jdks", "runner_jvm", "variant_jdks", "tools",
                "manifest", "server_machine", "network_path");
        assertThat(keys(env.path("run"))).containsExactly("run_id", "started_at", "profile", "command_line", "scenarios",
                "duration_s", "warmup_s", "warmup_at_least_s", "repeat", "iterations", "driver", "conditions", "threads",
                "delay_ms", "payload_bytes", "max_connections", "request_timeout_s", "saturation_pct", "jvm_args", "build",
                "mixed_jdks", "topology", "server_host", "memcached_servers", "memcached_started_by_runner", "finished_at",
                "wall_time_s", "flamegraph", "counters", "problems", "skipped");
        assertThat(keys(env.path("run").path("counters"))).containsExactly("perf", "perf_event_paranoid", "hardware_pmu",
                "events", "where");
        assertThat(keys(env.path("pinning"))).containsExactly("server_cpus", "memcached_cpus", "load_cpus", "description",
                "allowed_cpus", "server_machine");
        assertThat(keys(env.path("machine"))).containsExactly("host", "arch", "cpus", "cpu_model", "kernel", "os",
                "cpu_governor", "memory_total", "lscpu", "clk_tck", "perf_event_paranoid", "role");
        assertThat(keys(env.path("jdks").path(0))).containsExactly("java", "home", "feature", "vendor", "version", "vmName",
                "flags", "os_arch");
        assertThat(keys(env.path("runner_jvm"))).containsExactly("version", "vendor");
        assertThat(keys(env.path("tools"))).containsExactly("wrk", "memcached", "taskset", "jmeter", "toxiproxy");
        assertThat(keys(env.path("manifest").path(0))).containsExactly("name", "module", "jar", "mode", "min_jdk",
                "description");
        assertThat(keys(env.path("server_machine"))).containsExactly("host", "arch", "cpus", "cpu_model", "kernel", "os",
                "cpu_governor", "memory_total", "lscpu", "clk_tck", "perf_event_paranoid", "allowed_cpus", "role", "pinning",
                "directory", "address", "jdks");
        assertThat(keys(env.path("network_path"))).containsExactly("load_machine_address_seen_by_server",
                "server_interface", "load_interface", "health_round_trips");
        assertThat(keys(env.path("network_path").path("health_round_trips").path("jetty")))
                .containsExactly("method", "min_ms", "median_ms", "max_ms");
        assertThat(env.path("run").path("duration_s").isDouble()).as("seconds as a decimal").isTrue();
        assertThat(env.path("run").path("wall_time_s").isIntegralNumber()).isTrue();
    }

    @Test
    void aRunStillGoingHasNoOutcomeAndAOneMachineRunNoServerSections() throws Exception {
        EnvironmentRecord full = twoMachineRun();
        EnvironmentRecord starting = EnvironmentRecord.oneMachine(RunSection.planned(full.run().plan(), false),
                full.pinning(), full.machine(), full.jdks(), full.runnerJvm(), full.variantJdks(), full.tools(), full.manifest());
        Path file = dir.resolve(EnvironmentFile.NAME);
        EnvironmentFile.write(file, starting);
        JsonNode env = EnvironmentFile.read(file);
        assertThat(keys(env)).doesNotContain("server_machine", "network_path");
        assertThat(keys(env.path("run"))).endsWith("jvm_args", "build", "mixed_jdks").doesNotContain("problems", "wall_time_s");
        assertThat(EnvironmentFile.readRecord(file)).contains(starting);
    }

    @Test
    void aPartialFileStillReads() throws Exception {
        Path file = dir.resolve(EnvironmentFile.NAME);
        Files.writeString(file, "{\"run\":{\"run_id\":\"r1\",\"driver\":\"gatling\",\"simulation\":\"Mix\"},"
                + "\"machine\":{\"host\":\"h\",\"cpus\":4},\"gatling_jvm\":{\"version\":\"21\"}}");
        EnvironmentRecord env = EnvironmentFile.readRecord(file).orElseThrow();
        assertThat(env.run().plan().runId()).isEqualTo("r1");
        assertThat(env.run().plan().driver()).isEqualTo("gatling");
        assertThat(env.run().problems()).isEmpty();
        assertThat(env.machine().cpus()).isEqualTo(4);
        assertThat(env.serverMachine()).isEmpty();
        assertThat(EnvironmentFile.readRecord(dir.resolve("missing.json"))).isEmpty();
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            keys.add(it.next());
        }
        return keys;
    }
}
