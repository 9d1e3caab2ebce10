package org.testbed.runner.step;

import org.testbed.runfolder.EnvironmentFile;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.testbed.runner.env.Environment;
import org.testbed.driver.WrkDriver;
import org.testbed.variant.Variant;

/** The run's {@code environment.json}: the settings, the machine, the pinning, the JDKs, the tools. */
final class RunEnvironment {
    private RunEnvironment() {
    }

    static ObjectNode of(RunSettings settings, Instant started, Map<Variant, Path> javas, JdkChoice jdks) throws IOException {
        ObjectNode env = EnvironmentFile.JSON.createObjectNode();
        ObjectNode run = env.putObject("run");
        run.put("run_id", settings.output().runId());
        run.put("started_at", started.toString());
        run.put("profile", settings.output().profile());
        ArrayNode args = run.putArray("command_line");
        settings.output().commandLine().forEach(args::add);
        ObjectNode scenarios = run.putObject("scenarios");
        settings.load().scenarios().forEach((name, levels) -> {
            ArrayNode a = scenarios.putArray(name);
            levels.forEach(l -> a.add(l.label()));
        });
        run.put("duration_s", settings.load().duration().toMillis() / 1000.0);
        run.put("warmup_s", settings.load().warmup().toMillis() / 1000.0);
        run.put("warmup_at_least_s", settings.load().warmupAtLeast().toMillis() / 1000.0);
        run.put("repeat", settings.load().repeat());
        run.put("iterations", settings.load().iterations());
        run.put("driver", settings.load().driver());
        run.put("conditions", settings.conditionsLabel());
        run.put("threads", settings.servers().threads());
        run.put("delay_ms", settings.load().delayMs());
        run.put("payload_bytes", settings.load().payloadSize());
        run.put("max_connections", settings.load().maxConnections());
        run.put("request_timeout_s", settings.load().timeout().toSeconds());
        run.put("saturation_pct", settings.load().saturationPct());
        ArrayNode jvmArgs = run.putArray("jvm_args");
        settings.servers().jvmArgs().forEach(jvmArgs::add);
        ObjectNode pin = env.putObject("pinning");
        pin.put("server_cpus", settings.servers().pinning().serverCpus());
        pin.put("memcached_cpus", settings.servers().pinning().memcachedCpus());
        pin.put("load_cpus", settings.servers().pinning().loadCpus());
        pin.put("description", settings.servers().pinning().describe());
        pin.put("allowed_cpus", Pinning.allowedCpus().toString());
        env.set("machine", Environment.machine());
        ArrayNode jdkArray = env.putArray("jdks");
        for (Path java : javas.values().stream().distinct().toList()) {
            jdkArray.add(Environment.jdk(jdks.info(java)));
        }
        run.put("mixed_jdks", javas.values().stream().distinct().count() > 1);
        ObjectNode runner = env.putObject("runner_jvm");
        runner.put("version", System.getProperty("java.runtime.version"));
        runner.put("vendor", System.getProperty("java.vendor"));
        ObjectNode variantJdks = env.putObject("variant_jdks");
        javas.forEach((v, j) -> variantJdks.put(v.name(), jdks.label(j)));
        ObjectNode tools = env.putObject("tools");
        Path wrk = WrkDriver.find();
        tools.put("wrk", wrk == null ? "not installed" : Environment.command(wrk.toString(), "-v").lines().findFirst().orElse(""));
        tools.put("memcached", Environment.command("memcached", "-V").strip());
        tools.put("taskset", Pinning.tasksetAvailable());
        env.set("manifest", Environment.manifest(settings.servers().variants()));
        return env;
    }
}
