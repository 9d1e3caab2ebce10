package org.testbed.runfolder.timeline;

import java.util.List;
import org.testbed.runfolder.csv.Column;
import org.testbed.runfolder.csv.CsvRow;

/**
 * One fault of the store in a sample's window ({@code --fault}): a row of
 * {@code raw/<variant>/<sample>.faults.csv}, which the report shades in its through-time view.
 *
 * @param fault the fault as a condition writes it ({@code stall5s+2s})
 * @param fromS when it was set off, seconds from the window's start
 * @param toS when the store was back, seconds from the window's start
 * @param backS the start of the first second that was back to its throughput and p99 before the fault; NaN when none was
 */
public record FaultInterval(String fault, double fromS, double toS, double backS) {
    private static final Column<FaultInterval> FAULT = Column.text("fault", FaultInterval::fault);
    private static final Column<FaultInterval> FROM = Column.decimal("from_s", 3, FaultInterval::fromS);
    private static final Column<FaultInterval> TO = Column.decimal("to_s", 3, FaultInterval::toS);
    private static final Column<FaultInterval> BACK = Column.decimal("back_s", 0, FaultInterval::backS);

    /** The columns, in order. */
    public static final List<Column<FaultInterval>> COLUMNS = List.of(FAULT, FROM, TO, BACK);

    public static FaultInterval read(CsvRow v) {
        return new FaultInterval(v.text(FAULT), v.decimal(FROM), v.decimal(TO), v.decimal(BACK));
    }
}
