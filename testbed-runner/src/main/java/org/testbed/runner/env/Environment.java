package org.testbed.runner.env;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.Machine;
import org.testbed.variant.Variant;

/**
 * {@code environment.json}: what the studies copied by hand — CPU model and lscpu, kernel, CPU
 * governor, JDKs with their flags, pinning, tool versions, the variant manifest — so that a
 * result can be read (and two runs compared) without asking what the machine was.
 */
public final class Environment {
    private static final ObjectMapper JSON = EnvironmentFile.JSON;
    /** Read when this class loads, before the runner pins itself to the load CPUs. */
    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    private Environment() {
    }

    /** The machine: host, arch, CPUs, CPU model, lscpu, kernel, governor, memory. */
    public static ObjectNode machine() {
        ObjectNode m = JSON.createObjectNode();
        m.put("host", hostName());
        m.put("arch", arch());
        m.put("cpus", CPUS);
        m.put("cpu_model", cpuModel());
        m.put("kernel", command("uname", "-srvm").strip());
        m.put("os", osRelease());
        m.set("cpu_governor", governors());
        m.put("memory_total", firstLine(read("/proc/meminfo")));
        m.put("lscpu", command("lscpu"));
        m.put("clk_tck", org.testbed.driver.proc.ClockTicks.perSecond());
        m.put("perf_event_paranoid", read("/proc/sys/kernel/perf_event_paranoid").strip());
        return m;
    }

    /** The CPUs this machine gives the run (before any pinning): the CSV's {@code cpus}. */
    public static int cpus() {
        return CPUS;
    }

    public static String hostName() {
        return Machine.hostName();
    }

    /** {@code x86_64} or {@code aarch64}, as {@code uname -m} says (the JVM's amd64 is renamed). */
    public static String arch() {
        return Machine.arch();
    }

    /** The first {@code model name} of /proc/cpuinfo, or lscpu's Model name (arm64 has no model name). */
    public static String cpuModel() {
        return Machine.cpuModel();
    }

    /** Governor per CPU from /sys, or a note when cpufreq is absent (VMs, containers). */
    public static JsonNode governors() {
        Map<String, String> byCpu = new TreeMap<>();
        Path cpus = Path.of("/sys/devices/system/cpu");
        if (Files.isDirectory(cpus)) {
            try (Stream<Path> list = Files.list(cpus)) {
                list.filter(p -> p.getFileName().toString().matches("cpu\\d+")).forEach(p -> {
                    Path g = p.resolve("cpufreq/scaling_governor");
                    if (Files.isReadable(g)) {
                        byCpu.put(p.getFileName().toString(), read(g.toString()).strip());
                    }
                });
            } catch (IOException ignored) {
                // none
            }
        }
        if (byCpu.isEmpty()) {
            return JSON.getNodeFactory().textNode("absent (no /sys/devices/system/cpu/cpu*/cpufreq: a VM or container)");
        }
        return JSON.valueToTree(byCpu);
    }

    public static ObjectNode jdk(JdkInfo info) {
        return JSON.valueToTree(info);
    }

    public static ArrayNode manifest(List<Variant> variants) {
        ArrayNode array = JSON.createArrayNode();
        for (Variant v : variants) {
            ObjectNode n = array.addObject();
            n.put("name", v.name());
            n.put("module", v.module());
            n.put("jar", v.jar());
            n.put("mode", v.mode());
            n.put("min_jdk", v.minJdk());
            n.put("description", v.description());
        }
        return array;
    }

    /** A command's output (stdout and stderr), or an empty string if it cannot run. */
    public static String command(String... command) {
        return Machine.command(command);
    }

    static String read(String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String osRelease() {
        for (String line : read("/etc/os-release").split("\n")) {
            if (line.startsWith("PRETTY_NAME=")) {
                return line.substring("PRETTY_NAME=".length()).replace("\"", "").strip();
            }
        }
        return System.getProperty("os.name", "") + " " + System.getProperty("os.version", "");
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return (nl < 0 ? text : text.substring(0, nl)).strip().toLowerCase(Locale.ROOT).startsWith("memtotal")
                ? (nl < 0 ? text : text.substring(0, nl)).replaceAll("\\s+", " ").strip() : "";
    }
}
