package org.testbed.runfolder.csv;

/** The sidecar {@code steps.csv}: one {@link StepRecord} per row of results.csv. */
public final class StepsCsv {
    public static final String FILE = "steps.csv";
    /** Only the key columns are required: a steps.csv from an older runner lacks some others (read as unknown or 0). */
    public static final CsvTable<StepRecord> TABLE = new CsvTable<>(FILE, StepRecord.COLUMNS, 4, StepRecord::read);

    private StepsCsv() {
    }
}
