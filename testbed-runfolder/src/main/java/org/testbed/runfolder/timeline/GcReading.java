package org.testbed.runfolder.timeline;

import java.util.List;
import org.testbed.runfolder.csv.Column;
import org.testbed.runfolder.csv.CsvRow;

/**
 * One reading of the server JVM's garbage-collection counters during a sample's window: a row of
 * {@code raw/<variant>/<sample>.gc.csv}. The counters are the JVM's own running totals (hsperfdata,
 * what jstat shows), so the difference of two readings is what was collected between them.
 *
 * @param atEpochMillis when it was read, milliseconds since the epoch (the interval log's clock)
 * @param collections the collectors' invocations so far (jstat's YGC + FGC + CGC)
 * @param gcMillis their accumulated time so far, ms (jstat's GCT)
 */
public record GcReading(long atEpochMillis, long collections, double gcMillis) {
    private static final Column<GcReading> AT = Column.count("at_ms", GcReading::atEpochMillis);
    private static final Column<GcReading> COLLECTIONS = Column.count("collections", GcReading::collections);
    private static final Column<GcReading> GC_MS = Column.decimal("gc_ms", 3, GcReading::gcMillis);

    /** The columns, in order. */
    public static final List<Column<GcReading>> COLUMNS = List.of(AT, COLLECTIONS, GC_MS);

    public static GcReading read(CsvRow v) {
        return new GcReading(v.count(AT), v.count(COLLECTIONS), v.decimal(GC_MS));
    }
}
