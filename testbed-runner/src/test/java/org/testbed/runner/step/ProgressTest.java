package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.OperationRecord;

class ProgressTest {
    private static final ResultRow.StepKey KEY = new ResultRow.StepKey("v", "mix", 64, 0, Conditions.PLAIN);

    private static OperationRecord operation(String name, long requests, double p99) {
        return new OperationRecord(KEY, 1, 1, name, requests, 0, requests / 5.0,
                new ResultRow.Latencies(p99 / 3, p99 / 2, p99, p99 * 2, p99 * 3));
    }

    @Test
    void severalOperationsGetOneLineOfTheirP99sWithTheShareOfTheMostFrequent() {
        String line = Progress.perOperation(List.of(operation("GET", 8000, 3.1), operation("POST", 1000, 4.9),
                operation("PUT", 500, 5.2), operation("DELETE", 500, 4.4)));
        assertThat(line).isEqualTo("     per operation p99: GET 3.100 ms (80%), POST 4.900 ms, PUT 5.200 ms, DELETE 4.400 ms");
    }

    @Test
    void oneOperationAddsNothingToTheStepLine() {
        assertThat(Progress.perOperation(List.of(operation("plaintext", 100, 1)))).isEmpty();
        assertThat(Progress.perOperation(List.of())).isEmpty();
    }

    @Test
    void aSampleItsDriverCouldNotBreakDownSaysSoAndWhy() {
        OperationRecord none = OperationRecord.notAvailable(KEY, 1, 1, "wrk keeps one latency histogram for all requests",
                9000, 0, 1800);
        assertThat(Progress.perOperation(List.of(none)))
                .isEqualTo("     per operation: n/a (wrk keeps one latency histogram for all requests)");
    }
}
