package org.testbed.runfolder.csv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow.Latencies;
import org.testbed.runfolder.csv.ResultRow.StepKey;

class OperationsCsvTest {

    @Test
    void operationsRoundTrip(@TempDir Path dir) throws Exception {
        StepKey closed = Records.closed("vertx", "mix", 64);
        StepKey open = new StepKey("spring-tomcat", "journey", 0, 2500, new Conditions(true, true, false));
        List<OperationRecord> operations = List.of(
                new OperationRecord(closed, 1, 1, "GET", 16000, 0, 1600.0, new Latencies(0.812, 1.5, 3.125, 7.0, 12.5)),
                new OperationRecord(closed, 1, 1, "POST", 2000, 3, 200.0, new Latencies(1.25, 2.0, 4.9, 9.75, 15.0)),
                new OperationRecord(open, 2, 3, "read-updated", 4166, 0, 416.6, new Latencies(2.0, 3.0, 4.0, 5.0, 6.0)));
        Path file = dir.resolve(OperationsCsv.FILE);
        OperationsCsv.TABLE.create(file);
        for (OperationRecord o : operations) {
            OperationsCsv.TABLE.append(file, o);
        }
        assertThat(OperationsCsv.TABLE.read(file)).containsExactlyElementsOf(operations);
        assertThat(Csv.parse(Files.readString(file)).get(0)).containsExactly("variant", "scenario", "concurrency",
                "target_rps", "conditions", "repeat", "iteration", "operation", "requests", "errors", "rps", "lat_p50_ms",
                "lat_p90_ms", "lat_p99_ms", "lat_p999_ms", "lat_max_ms");
        assertThat(Csv.parse(Files.readString(file)).get(3)).startsWith("spring-tomcat", "journey", "0", "2500.0",
                "tls+gzip", "2", "3", "read-updated");

        OperationsCsv.TABLE.write(file, operations.subList(0, 1));
        assertThat(OperationsCsv.TABLE.read(file)).containsExactly(operations.get(0));
        assertThat(operations).allMatch(OperationRecord::available);
        assertThat(OperationsCsv.TABLE.read(dir.resolve("absent.csv"))).as("a run from before the table").isEmpty();
    }

    @Test
    void aSampleWithoutFiguresPerOperationIsOneRowSayingWhyWithItsCountsAndNoLatencies(@TempDir Path dir) throws Exception {
        OperationRecord none = OperationRecord.notAvailable(Records.closed("vertx", "mix", 64), 1, 1,
                "wrk keeps one latency histogram for all requests", 20000, 4, 10000.0);
        assertThat(none.available()).isFalse();
        Path file = dir.resolve(OperationsCsv.FILE);
        OperationsCsv.TABLE.write(file, List.of(none));
        assertThat(OperationsCsv.TABLE.read(file)).containsExactly(none);
        assertThat(Csv.parse(Files.readString(file)).get(1)).containsExactly("vertx", "mix", "64", "0.0", "plain", "1", "1",
                "n/a (wrk keeps one latency histogram for all requests)", "20000", "4", "10000.0", "", "", "", "", "");
    }
}
