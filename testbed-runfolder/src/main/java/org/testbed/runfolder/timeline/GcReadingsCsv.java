package org.testbed.runfolder.timeline;

import java.nio.file.Path;
import org.testbed.runfolder.csv.CsvTable;

/**
 * The server's GC counters read every {@link #PERIOD_MILLIS} ms through a sample's window
 * ({@link GcReading}), in a file beside the sample's interval log: {@code <sample>.gc.csv}.
 */
public final class GcReadingsCsv {
    /** The table's name in docs/DESIGN.md; each sample's file is {@code raw/<variant>/<sample>.gc.csv}. */
    public static final String FILE = "gc.csv";
    /**
     * A quarter of a second: fine enough to put a pause in its second of the window most of the time,
     * coarse enough that reading a 32 KB memory-mapped file is nothing to the machine.
     */
    public static final long PERIOD_MILLIS = 250;
    public static final CsvTable<GcReading> TABLE = new CsvTable<>(FILE, GcReading.COLUMNS, 3, GcReading::read);

    private GcReadingsCsv() {
    }

    /** The GC file of the sample whose interval log is {@code hlog}. */
    public static Path beside(Path hlog) {
        String name = hlog.getFileName().toString();
        return hlog.resolveSibling(name.substring(0, name.length() - ".hlog".length()) + ".gc.csv");
    }
}
