package org.testbed.runner.env;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.testbed.runfolder.Machine;
import org.testbed.runfolder.environment.CpuGovernors;
import org.testbed.runfolder.environment.JdkSection;
import org.testbed.runfolder.environment.MachineSection;
import org.testbed.runfolder.environment.ManifestEntry;
import org.testbed.variant.Variant;

/**
 * {@code environment.json}: what the studies copied by hand — CPU model and lscpu, kernel, CPU
 * governor, JDKs with their flags, pinning, tool versions, the variant manifest — so that a
 * result can be read (and two runs compared) without asking what the machine was.
 */
public final class Environment {
    /** Read when this class loads, before the runner pins itself to the load CPUs. */
    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    private Environment() {
    }

    /** The machine: host, arch, CPUs, CPU model, lscpu, kernel, governor, memory. */
    public static MachineSection machine() {
        return new MachineSection(hostName(), arch(), CPUS, cpuModel(), command("uname", "-srvm").strip(), osRelease(),
                governors(), firstLine(read("/proc/meminfo")), command("lscpu"),
                org.testbed.driver.proc.ClockTicks.perSecond(), read("/proc/sys/kernel/perf_event_paranoid").strip(),
                Optional.empty(), Optional.empty());
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

    /** Governor per CPU from /sys; none when cpufreq is absent (VMs, containers). */
    public static CpuGovernors governors() {
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
        return new CpuGovernors(byCpu);
    }

    public static JdkSection jdk(JdkInfo info) {
        return new JdkSection(info.java(), info.home(), info.feature(), info.vendor(), info.version(), info.vmName(),
                info.flags(), info.osArch());
    }

    public static List<ManifestEntry> manifest(List<Variant> variants) {
        return variants.stream()
                .map(v -> new ManifestEntry(v.name(), v.module(), v.jar(), v.mode(), v.minJdk(), v.description()))
                .toList();
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
