package org.testbed.runfolder.capacity;

import java.util.List;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.Column;
import org.testbed.runfolder.csv.CsvRow;
import org.testbed.runfolder.price.Pricing;

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
 * @param costPerMillion on a run with a price: what a million requests cost at the capacity found
 *                       ({@link Pricing#costPerMillion}); NaN without a price, or when even the lowest rate missed
 */
public record CapacityRecord(String variant, String scenario, Conditions conditions, String sla, int repeat,
                             double capacityRps, int probes, String probeLog, String reason, double costPerMillion) {

    private static final Column<CapacityRecord> VARIANT = Column.text("variant", CapacityRecord::variant);
    private static final Column<CapacityRecord> SCENARIO = Column.text("scenario", CapacityRecord::scenario);
    private static final Column<CapacityRecord> CONDITIONS = Column.text("conditions", r -> r.conditions.label());
    private static final Column<CapacityRecord> SLA = Column.text("sla", CapacityRecord::sla);
    private static final Column<CapacityRecord> REPEAT = Column.count("repeat", CapacityRecord::repeat);
    private static final Column<CapacityRecord> CAPACITY_RPS = Column.decimal("capacity_rps", 0, CapacityRecord::capacityRps);
    private static final Column<CapacityRecord> PROBES = Column.count("probes", CapacityRecord::probes);
    private static final Column<CapacityRecord> PROBE_LOG = Column.text("probe_log", CapacityRecord::probeLog);
    private static final Column<CapacityRecord> REASON = Column.text("reason", CapacityRecord::reason);
    private static final Column<CapacityRecord> COST_PER_MILLION = Column.number("cost_per_million", r -> Pricing.cost(r.costPerMillion));

    /** capacity.csv's columns, in order. */
    public static final List<Column<CapacityRecord>> COLUMNS = List.of(VARIANT, SCENARIO, CONDITIONS, SLA, REPEAT,
            CAPACITY_RPS, PROBES, PROBE_LOG, REASON, COST_PER_MILLION);

    public CapacityRecord {
        conditions = conditions == null ? Conditions.PLAIN : conditions;
    }

    /** This search priced at {@code pricing}: the cost of a million requests at the capacity found. */
    public CapacityRecord priced(Pricing pricing) {
        return new CapacityRecord(variant, scenario, conditions, sla, repeat, capacityRps, probes, probeLog, reason,
                pricing.costPerMillion(capacityRps));
    }

    /** The capacity's identity across passes: variant, scenario, conditions and SLA. */
    public String key() {
        return String.join("|", variant, scenario, conditions.label(), sla);
    }

    public static CapacityRecord read(CsvRow v) {
        return new CapacityRecord(v.text(VARIANT), v.text(SCENARIO), Conditions.parse(v.text(CONDITIONS)), v.text(SLA),
                v.integer(REPEAT), v.decimal(CAPACITY_RPS), v.integer(PROBES), v.text(PROBE_LOG), v.text(REASON),
                v.decimal(COST_PER_MILLION));
    }
}
