package org.testbed.runfolder.csv;

/**
 * {@code operations.csv}: each operation of each sample ({@link OperationRecord}), appended as the
 * samples are taken, beside {@code samples.csv}.
 */
public final class OperationsCsv {
    public static final String FILE = "operations.csv";
    /** The sample's key and the operation are required. */
    public static final CsvTable<OperationRecord> TABLE = new CsvTable<>(FILE, OperationRecord.COLUMNS, 8,
            OperationRecord::read);

    private OperationsCsv() {
    }
}
