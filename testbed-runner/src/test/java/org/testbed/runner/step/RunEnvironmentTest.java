package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.driver.Level;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.environment.CpuGovernors;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.environment.MachineSection;
import org.testbed.runfolder.environment.NetworkPathSection;
import org.testbed.runfolder.environment.RoundTrips;
import org.testbed.runner.env.Environment;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.host.RemoteHostSettings;
import org.testbed.variant.Variant;

/**
 * environment.json as the runner fills it: the settings where the report looks for them, this
 * machine and JDK, and for a two-machine run the load machine, the server's and the network between
 * them, with the same keys a run folder has always had.
 */
class RunEnvironmentTest {
    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    @TempDir
    Path dir;

    private static RunSettings settings(boolean twoMachines) {
        Map<String, List<Level>> scenarios = new LinkedHashMap<>();
        scenarios.put("mix", List.of(new Level(16, 0), new Level(64, 0)));
        scenarios.put("read", List.of(new Level(0, 1000)));
        List<Variant> variants = List.of(new Variant("jetty", "jetty-app", "jetty-app/target/jetty.jar", "sync", 17, "Jetty"),
                new Variant("vertx", "vertx-app", "vertx-app/target/vertx.jar", "async", 17, "Vert.x"));
        return new RunSettings(new RunSettings.Output(Path.of("/repo"), Path.of("/repo/results/r1"), "r1", "quick",
                List.of("--quick")),
                new RunSettings.Load(scenarios, Duration.ofMillis(5500), Duration.ofSeconds(10), Duration.ofSeconds(2), 2, 3,
                        "wrk", 150, 512, 1000, Duration.ofSeconds(30), 90.0),
                new RunSettings.Servers(variants, Optional.empty(), false, List.of("-Xmx1g"), 200, Optional.empty(),
                        new Pinning("0", "1", "1")),
                new RunSettings.Observation(Optional.of("cpu"), true), List.of(Conditions.PLAIN), Optional.empty(),
                twoMachines ? Optional.of(new RemoteHostSettings("root@srv", 22, null, List.of(), "/srv/testbed", "10.0.0.2",
                        8080, null)) : Optional.empty(), Optional.empty());
    }

    private JsonNode written(EnvironmentRecord env) throws Exception {
        Path file = dir.resolve(EnvironmentFile.NAME);
        EnvironmentFile.write(file, env);
        return EnvironmentFile.read(file);
    }

    @Test
    void aOneMachineRunHasTheSettingsThisMachineAndItsJdk() throws Exception {
        RunSettings settings = settings(false);
        JdkChoice jdks = new JdkChoice(settings, new PrintStream(new ByteArrayOutputStream()));
        Map<Variant, Path> javas = new LinkedHashMap<>();
        settings.servers().variants().forEach(v -> javas.put(v, JAVA));
        Instant started = Instant.parse("2024-01-02T03:04:05Z");
        EnvironmentRecord env = RunEnvironment.of(settings, started, javas, jdks);
        env = env.withRun(env.run().withMemcached("127.0.0.1:11211", true));
        env = RunEnvironment.finished(env, settings, started, Optional.of("async-profiler, cpu mode"), List.of("vertx: no"),
                List.of());

        JsonNode json = written(env);
        assertThat(keys(json)).containsExactly("run", "pinning", "machine", "jdks", "runner_jvm", "variant_jdks", "tools",
                "manifest");
        JsonNode run = json.path("run");
        assertThat(keys(run)).containsExactly("run_id", "started_at", "profile", "command_line", "scenarios", "duration_s",
                "warmup_s", "warmup_at_least_s", "repeat", "iterations", "driver", "conditions", "threads", "delay_ms",
                "payload_bytes", "max_connections", "request_timeout_s", "saturation_pct", "jvm_args", "build", "mixed_jdks",
                "memcached_servers", "memcached_started_by_runner", "finished_at", "wall_time_s", "flamegraph", "counters",
                "problems", "skipped");
        assertThat(run.path("started_at").asText()).isEqualTo("2024-01-02T03:04:05Z");
        assertThat(run.path("duration_s").asDouble()).isEqualTo(5.5);
        assertThat(run.path("scenarios").path("mix").path(1).asText()).isEqualTo(new Level(64, 0).label());
        assertThat(run.path("conditions").asText()).isEqualTo("plain");
        assertThat(run.path("mixed_jdks").asBoolean()).isFalse();
        assertThat(run.path("counters").has("where")).as("perf ran here").isFalse();
        assertThat(run.path("problems").path(0).asText()).isEqualTo("vertx: no");
        assertThat(run.path("skipped").isArray()).isTrue();
        assertThat(keys(json.path("pinning"))).containsExactly("server_cpus", "memcached_cpus", "load_cpus", "description",
                "allowed_cpus");
        assertThat(keys(json.path("machine"))).containsExactly("host", "arch", "cpus", "cpu_model", "kernel", "os",
                "cpu_governor", "memory_total", "lscpu", "clk_tck", "perf_event_paranoid");
        assertThat(json.path("jdks")).hasSize(1);
        assertThat(json.path("jdks").path(0).path("version").asText()).isEqualTo(System.getProperty("java.runtime.version"));
        assertThat(keys(json.path("variant_jdks"))).containsExactly("jetty", "vertx");
        assertThat(json.path("manifest").path(1).path("min_jdk").asInt()).isEqualTo(17);
    }

    @Test
    void aTwoMachineRunRecordsBothMachinesAndTheNetworkBetweenThem() throws Exception {
        RunSettings settings = settings(true);
        JdkChoice jdks = new JdkChoice(settings, new PrintStream(new ByteArrayOutputStream()));
        Instant started = Instant.now();
        EnvironmentRecord env = RunEnvironment.of(settings, started, Map.of(), jdks);
        MachineSection server = new MachineSection("srv", "aarch64", 4, "Neoverse-N1", "Linux 6.1", "Debian 12",
                new CpuGovernors(Map.of()), "MemTotal: 1000 kB", "Architecture: aarch64", 100, "2", Optional.of("0-3"),
                Optional.empty());
        JdkInfo there = JdkInfo.parse("java on root@srv", "    java.runtime.version = 21.0.1+12\n-XX:+UseG1GC\n");
        NetworkPathSection network = new NetworkPathSection("10.0.0.1", "eth0 mtu 1500", "eth0 mtu 1500",
                Map.of("jetty", new RoundTrips("20 GETs", 0.1, 0.2, 0.3)));
        RemoteHostSettings remote = settings.serverHost().orElseThrow();
        env = RemoteRun.onTwoMachines(env, "root@srv", server, List.of(), Optional.empty(), network, remote);
        env = env.withRun(env.run().withMemcached("127.0.0.1:22222", true));
        // At the end, again: every variant deployed, its JDK there known.
        env = RemoteRun.onTwoMachines(env, "root@srv", server, List.of(Environment.jdk(there)), Optional.empty(), network, remote);
        env = RunEnvironment.finished(env, settings, started, Optional.empty(), List.of(), List.of());

        JsonNode json = written(env);
        assertThat(keys(json)).containsExactly("run", "pinning", "machine", "jdks", "runner_jvm", "variant_jdks", "tools",
                "manifest", "server_machine", "network_path");
        JsonNode run = json.path("run");
        assertThat(keys(run)).containsSequence("mixed_jdks", "topology", "server_host", "memcached_servers",
                "memcached_started_by_runner", "finished_at", "wall_time_s", "counters", "problems", "skipped");
        assertThat(run.path("server_host").asText()).isEqualTo("root@srv");
        assertThat(run.has("flamegraph")).as("no flame graphs were taken").isFalse();
        assertThat(run.path("counters").path("where").asText()).contains("server's machine");
        assertThat(json.path("pinning").path("server_machine").asText()).startsWith("not pinned by the runner");
        assertThat(json.path("machine").path("role").asText()).isEqualTo("load");
        assertThat(json.path("jdks")).as("chosen on the server's machine").isEmpty();
        JsonNode serverMachine = json.path("server_machine");
        assertThat(keys(serverMachine)).containsExactly("host", "arch", "cpus", "cpu_model", "kernel", "os", "cpu_governor",
                "memory_total", "lscpu", "clk_tck", "perf_event_paranoid", "allowed_cpus", "role", "pinning", "directory",
                "address", "jdks");
        assertThat(serverMachine.path("role").asText()).isEqualTo("server");
        assertThat(serverMachine.path("cpu_governor").asText()).isEqualTo(CpuGovernors.ABSENT);
        assertThat(serverMachine.path("address").asText()).isEqualTo("10.0.0.2:8080");
        assertThat(serverMachine.path("jdks").path(0).path("version").asText()).isEqualTo("21.0.1+12");
        assertThat(json.path("network_path").path("health_round_trips").path("jetty").path("median_ms").asDouble())
                .isEqualTo(0.2);
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
