package org.testbed.runfolder.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.figure.Figure;

/**
 * The capacities of two runs made with {@code --sla}, side by side: for each variant, scenario,
 * conditions and SLA both searched, the ratio B/A of the median capacity, with an interval and a
 * verdict from the passes' capacities as for throughput (higher is better): e.g. the capacity of an
 * arm64 VM against an x86_64 one under the same p99 bound.
 */
public record CapacityComparison(List<Entry> entries) {

    /** One capacity both runs found; {@code change} is its ratio B/A with interval and verdict. */
    public record Entry(CapacityCsv.Summary a, CapacityCsv.Summary b, Comparison.Change change) {
    }

    public static CapacityComparison load(Path dirA, Path dirB) throws IOException {
        return of(CapacityCsv.TABLE.read(dirA.resolve(CapacityCsv.FILE)), CapacityCsv.TABLE.read(dirB.resolve(CapacityCsv.FILE)));
    }

    public static CapacityComparison of(List<CapacityRecord> a, List<CapacityRecord> b) {
        Map<String, CapacityCsv.Summary> byKey = new LinkedHashMap<>();
        CapacityCsv.summaries(b).forEach(s -> byKey.put(s.first().key(), s));
        List<Entry> entries = new ArrayList<>();
        for (CapacityCsv.Summary sa : CapacityCsv.summaries(a)) {
            CapacityCsv.Summary sb = byKey.get(sa.first().key());
            if (sb != null) {
                entries.add(new Entry(sa, sb, Comparison.change(Figure.RPS, sa.capacity().median(),
                        sb.capacity().median(), values(sa), values(sb))));
            }
        }
        return new CapacityComparison(List.copyOf(entries));
    }

    private static double[] values(CapacityCsv.Summary s) {
        return s.searches().stream().mapToDouble(CapacityRecord::capacityRps).toArray();
    }

    /** The console lines: one per capacity both runs found, or nothing when there is none. */
    public String text() {
        if (entries.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\ncapacity under an SLA (median of the passes [min, max]), B/A:\n");
        for (Entry e : entries) {
            CapacityRecord first = e.a().first();
            Comparison.Change c = e.change();
            out.append(String.format(Locale.ROOT, "  %-22s %-9s %-8s %-12s A %8.0f [%.0f, %.0f]  B %8.0f [%.0f, %.0f]  B/A %.3f%s  %s%n",
                    first.variant(), first.scenario(), first.conditions().label(), first.sla(), c.a(), e.a().capacity().min(),
                    e.a().capacity().max(), c.b(), e.b().capacity().min(), e.b().capacity().max(), c.ratio(),
                    Double.isNaN(c.ciLow()) ? "" : String.format(Locale.ROOT, " [%.3f, %.3f]", c.ciLow(), c.ciHigh()),
                    verdict(c.verdict())));
        }
        return out.toString();
    }

    /** Capacity is throughput: more is better, so "faster" reads as higher. */
    static String verdict(Verdict v) {
        return switch (v) {
            case FASTER -> "higher";
            case SLOWER -> "lower";
            default -> v.wireName();
        };
    }
}
