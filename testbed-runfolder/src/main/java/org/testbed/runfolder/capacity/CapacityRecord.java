package org.testbed.runfolder.capacity;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.ResultRow;

/**
 * One line of {@code capacity.csv} (a run with {@code --sla}): what one search found for one variant
 * and scenario in one pass of the run. With {@code --repeat N} each pass searches again in a freshly
 * started server, so a capacity has N lines and its spread; the report shows their median.
 *
 * @param sla the objective searched for, as {@link Sla#label()} writes it
 * @param repeat which pass of the run searched, from 1
 * @param capacityRps the highest offered rate that met the SLA with no error; 0 when even the lowest missed
 * @param probes how many steps the search measured
 * @param probeLog every probe in order, {@code <rate>:met} or {@code <rate>:missed}, space-separated
 * @param reason why the search stopped where it did, in words (what the last rates measured)
 */
public record CapacityRecord(String variant, String scenario, Conditions conditions, String sla, int repeat,
                             double capacityRps, int probes, String probeLog, String reason) {

    public static final List<String> COLUMNS = List.of("variant", "scenario", "conditions", "sla", "repeat",
            "capacity_rps", "probes", "probe_log", "reason");

    public CapacityRecord {
        conditions = conditions == null ? Conditions.PLAIN : conditions;
    }

    /** The capacity's identity across passes: variant, scenario, conditions and SLA. */
    public String key() {
        return String.join("|", variant, scenario, conditions.label(), sla);
    }

    public List<String> fields() {
        return List.of(variant, scenario, conditions.label(), sla, Integer.toString(repeat),
                ResultRow.num(capacityRps, 0), Integer.toString(probes), probeLog, reason);
    }

    public static CapacityRecord of(Map<String, String> v) {
        try {
            return new CapacityRecord(v.get("variant"), v.get("scenario"), Conditions.parse(v.get("conditions")),
                    v.get("sla"), Integer.parseInt(v.get("repeat")), Double.parseDouble(v.get("capacity_rps")),
                    Integer.parseInt(v.getOrDefault("probes", "0")), v.getOrDefault("probe_log", ""),
                    v.getOrDefault("reason", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "capacity.csv: a line with a malformed number (%s)",
                    e.getMessage()));
        }
    }
}
