package org.testbed.runfolder.timeline;

import java.nio.file.Path;
import org.testbed.runfolder.csv.CsvTable;

/** The faults of a sample's window ({@link FaultInterval}), in a file beside its interval log: {@code <sample>.faults.csv}. */
public final class FaultIntervalsCsv {
    /** The table's name in docs/DESIGN.md; each sample's file is {@code raw/<variant>/<sample>.faults.csv}. */
    public static final String FILE = "faults.csv";
    public static final CsvTable<FaultInterval> TABLE = new CsvTable<>(FILE, FaultInterval.COLUMNS, 4, FaultInterval::read);

    private FaultIntervalsCsv() {
    }

    /** The faults file of the sample whose interval log is {@code hlog}. */
    public static Path beside(Path hlog) {
        String name = hlog.getFileName().toString();
        return hlog.resolveSibling(name.substring(0, name.length() - ".hlog".length()) + ".faults.csv");
    }
}
