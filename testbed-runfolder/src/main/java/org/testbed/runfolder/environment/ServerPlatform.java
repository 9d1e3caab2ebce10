package org.testbed.runfolder.environment;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a run's server ran on, in one line, from its environment.json: the arch of the server's
 * code (the JVM's under an emulator, else the machine's), the machine, the JDK; and, when the
 * server was emulated, the caveat that its figures are mechanics, not performance. What compare
 * prints for each side and what the report and the compare page show above their figures.
 *
 * @param arch {@code x86_64}, {@code aarch64}: the arch the server's code ran as
 * @param description e.g. {@code aarch64, emulated on x86_64 by /usr/bin/qemu-aarch64-static; machine vm,
 *                    AMD EPYC, 2 CPUs; JDK 17.0.21+1}
 * @param caveat present when the server was emulated
 */
public record ServerPlatform(String arch, String description, Optional<String> caveat) {

    /** From environment.json as read by {@code EnvironmentFile.read} (an empty object gives an unknown server). */
    public static ServerPlatform of(JsonNode env) {
        boolean twoMachines = env.path("server_machine").isObject();
        JsonNode machine = twoMachines ? env.path("server_machine") : env.path("machine");
        JsonNode jdks = twoMachines ? machine.path("jdks") : env.path("jdks");
        JsonNode emulation = machine.path("emulation");
        String arch = emulation.isObject() ? emulation.path("jvm_arch").asText() : machine.path("arch").asText("unknown");
        List<String> parts = new ArrayList<>();
        parts.add(emulation.isObject() ? new EmulationSection(arch, emulation.path("machine_arch").asText(),
                emulation.path("executable").asText(""), "").describe() : arch);
        parts.add((twoMachines ? "server machine " : "machine ") + machine.path("host").asText("?") + ", "
                + machine.path("cpu_model").asText("?").strip() + ", " + machine.path("cpus").asInt() + " CPUs");
        Set<String> versions = new LinkedHashSet<>();
        jdks.forEach(j -> versions.add(j.path("version").asText()));
        versions.remove("");
        if (!versions.isEmpty()) {
            parts.add("JDK " + String.join(", ", versions));
        }
        Optional<String> caveat = emulation.isObject() ? Optional.of(emulation.path("caveat").asText()) : Optional.empty();
        return new ServerPlatform(arch, String.join("; ", parts), caveat);
    }
}
