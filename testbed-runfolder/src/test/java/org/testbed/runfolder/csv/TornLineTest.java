package org.testbed.runfolder.csv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow.Latencies;
import org.testbed.runfolder.csv.ResultRow.StepKey;

/**
 * A run killed mid-write (a crash, {@code kill -9}, a full disk) can leave the last line of an
 * appended table without its end. Such a file still reads, without that line, and the next append
 * starts a line of its own instead of gluing onto the torn one.
 */
class TornLineTest {
    private static final StepKey KEY = Records.closed("vertx", "mix", 64);
    private static final OperationRecord GET = new OperationRecord(KEY, 1, 1, "GET", 16000, 0, 1600.0,
            new Latencies(0.812, 1.5, 3.125, 7.0, 12.5));
    private static final OperationRecord PUT = new OperationRecord(KEY, 1, 2, "PUT", 2000, 3, 200.0,
            new Latencies(1.25, 2.0, 4.9, 9.75, 15.0));

    @Test
    void aTornLastLineIsNotReadAndTheNextAppendStartsAfterIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(OperationsCsv.FILE);
        OperationsCsv.TABLE.create(file);
        OperationsCsv.TABLE.append(file, GET);
        String whole = Files.readString(file);
        String next = Csv.line(List.of("vertx", "mix", "64", "0.0", "plain", "1", "2", "PU"));
        // Half of a line: what a write cut short leaves; its first fields are even well-formed.
        Files.writeString(file, next.substring(0, next.length() - 1), StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        assertThat(OperationsCsv.TABLE.read(file)).containsExactly(GET);

        OperationsCsv.TABLE.append(file, PUT);
        assertThat(OperationsCsv.TABLE.read(file)).containsExactly(GET, PUT);
        assertThat(Files.readString(file)).startsWith(whole).doesNotContain("PU\n").endsWith("\n");
    }

    @Test
    void aTornHeaderLeavesAnEmptyFileThatSaysSo(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(OperationsCsv.FILE);
        Files.writeString(file, "variant,scen");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> OperationsCsv.TABLE.read(file)))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("is empty");
    }

    @Test
    void aWholeFileIsReadAsItIs() {
        assertThat(Csv.withoutTornLine("a,b\n1,2\n")).isEqualTo("a,b\n1,2\n");
        assertThat(Csv.withoutTornLine("a,b\n1,2")).isEqualTo("a,b\n");
        assertThat(Csv.withoutTornLine("")).isEmpty();
    }
}
