package org.testbed.runfolder.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.stats.MedianInterval;

/**
 * operations.csv for the report: one object per step and operation, each figure the median over
 * the step's samples, as results.csv's figures are, keyed by operations.csv's own column names (less
 * {@code repeat} and {@code iteration}, plus {@code samples}: how many there were).
 */
final class OperationsJson {
    private OperationsJson() {
    }

    record StepOperation(ResultRow.StepKey key, String operation) {
    }

    static ArrayNode of(List<OperationRecord> records) {
        Map<StepOperation, List<OperationRecord>> grouped = new LinkedHashMap<>();
        for (OperationRecord r : records) {
            if (!r.available()) {
                continue; // a wrk sample's "n/a (why)" row: nothing to draw, and the console and csv say why
            }
            grouped.computeIfAbsent(new StepOperation(r.key(), r.operation()), k -> new ArrayList<>()).add(r);
        }
        ArrayNode array = EnvironmentFile.JSON.createArrayNode();
        grouped.forEach((k, list) -> {
            OperationRecord median = new OperationRecord(k.key(), 1, 1, k.operation(),
                    Math.round(median(list, r -> r.requests())), Math.round(median(list, r -> r.errors())),
                    median(list, OperationRecord::rps),
                    new ResultRow.Latencies(median(list, r -> r.latency().p50Ms()), median(list, r -> r.latency().p90Ms()),
                            median(list, r -> r.latency().p99Ms()), median(list, r -> r.latency().p999Ms()),
                            median(list, r -> r.latency().maxMs())));
            ObjectNode n = OperationsCsv.TABLE.json(median);
            n.remove("repeat");
            n.remove("iteration");
            n.put("samples", list.size());
            array.add(n);
        });
        return array;
    }

    private static double median(List<OperationRecord> list, ToDoubleFunction<OperationRecord> figure) {
        return MedianInterval.median(list.stream().mapToDouble(figure).toArray());
    }
}
