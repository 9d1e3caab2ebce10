package org.testbed.runner.host;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.testbed.runfolder.environment.CpuGovernors;
import org.testbed.runfolder.environment.MachineSection;

/**
 * What {@code environment.json} says about a machine ({@code Environment.machine()} for this one),
 * gathered on the server's machine by one shell script over ssh. Each section of its output starts
 * with a line {@code @@name}.
 */
final class MachineFacts {
    static final String SCRIPT = String.join("\n",
            "load=\"${SSH_CLIENT%% *}\"",
            "echo @@host; hostname",
            "echo @@arch; uname -m",
            "echo @@cpus; getconf _NPROCESSORS_ONLN",
            "echo @@cpu_model; grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2-",
            "echo @@kernel; uname -srvm",
            "echo @@os; (. /etc/os-release 2>/dev/null && echo \"$PRETTY_NAME\")",
            "echo @@cpu_governor",
            "for f in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do",
            "  [ -r \"$f\" ] && echo \"$(basename \"$(dirname \"$(dirname \"$f\")\")\")=$(cat \"$f\")\"",
            "done",
            "echo @@memory_total; head -1 /proc/meminfo | tr -s ' '",
            "echo @@lscpu; lscpu 2>/dev/null",
            "echo @@clk_tck; getconf CLK_TCK",
            "echo @@perf_event_paranoid; cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null",
            "echo @@allowed_cpus; sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status",
            "echo @@load_machine_address; echo \"$load\"",
            "echo @@interface",
            "dev=$(ip route get \"$load\" 2>/dev/null | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p' | head -1)",
            "[ -n \"$dev\" ] && echo \"$dev mtu $(cat \"/sys/class/net/$dev/mtu\" 2>/dev/null)\"",
            "");

    private MachineFacts() {
    }

    /** The sections of the script's output, by name. */
    static Map<String, String> sections(String output) {
        Map<String, String> sections = new LinkedHashMap<>();
        String name = null;
        StringBuilder text = new StringBuilder();
        for (String line : output.split("\n", -1)) {
            if (line.startsWith("@@")) {
                if (name != null) {
                    sections.put(name, text.toString().strip());
                }
                name = line.substring(2).strip();
                text.setLength(0);
            } else if (name != null) {
                text.append(line).append('\n');
            }
        }
        if (name != null) {
            sections.put(name, text.toString().strip());
        }
        return sections;
    }

    /** The machine of environment.json, as {@code Environment.machine()} gives this one, and the CPUs a process there may use. */
    static MachineSection machine(Map<String, String> sections) {
        Map<String, String> governors = new LinkedHashMap<>();
        sections.getOrDefault("cpu_governor", "").lines().map(l -> l.split("=", 2)).filter(kv -> kv.length == 2)
                .forEach(kv -> governors.put(kv[0], kv[1]));
        return new MachineSection(sections.getOrDefault("host", ""), sections.getOrDefault("arch", ""),
                number(sections.get("cpus")), cpuModel(sections), sections.getOrDefault("kernel", ""),
                sections.getOrDefault("os", ""), new CpuGovernors(governors), sections.getOrDefault("memory_total", ""),
                sections.getOrDefault("lscpu", ""), number(sections.get("clk_tck")),
                sections.getOrDefault("perf_event_paranoid", ""), Optional.of(sections.getOrDefault("allowed_cpus", "")),
                Optional.empty());
    }

    /** /proc/cpuinfo's model name, else lscpu's (arm64 has no model name in /proc/cpuinfo). */
    static String cpuModel(Map<String, String> sections) {
        String model = sections.getOrDefault("cpu_model", "").strip();
        if (!model.isEmpty()) {
            return model;
        }
        return sections.getOrDefault("lscpu", "").lines().filter(l -> l.startsWith("Model name:"))
                .map(l -> l.substring("Model name:".length()).strip()).findFirst().orElse("");
    }

    private static int number(String text) {
        try {
            return text == null ? 0 : Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
