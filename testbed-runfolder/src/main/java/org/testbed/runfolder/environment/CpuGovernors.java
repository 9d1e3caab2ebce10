package org.testbed.runfolder.environment;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU frequency governor of each CPU ({@code performance}, {@code powersave}...): a governor
 * that lowers the clock makes a run slower and noisier. Written as an object by CPU name
 * ({@code {"cpu0" : "performance"}}), or, where the machine has no cpufreq (a VM, a container),
 * as the text {@link #ABSENT}.
 *
 * @param byCpu the governor by CPU name, in the order gathered; empty when there is no cpufreq
 */
public record CpuGovernors(Map<String, String> byCpu) {
    public static final String ABSENT = "absent (no /sys/devices/system/cpu/cpu*/cpufreq: a VM or container)";

    public CpuGovernors {
        byCpu = Collections.unmodifiableMap(new LinkedHashMap<>(byCpu));
    }

    /** As written: the object by CPU, or {@link #ABSENT}. */
    @JsonValue
    Object json() {
        return byCpu.isEmpty() ? ABSENT : byCpu;
    }

    /** Read back: the object by CPU, or the text of a machine without cpufreq. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static CpuGovernors read(JsonNode json) {
        Map<String, String> byCpu = new LinkedHashMap<>();
        json.properties().forEach(e -> byCpu.put(e.getKey(), e.getValue().asText()));
        return new CpuGovernors(byCpu);
    }
}
