package org.testbed.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Machine;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.scenario.LoadShape;

class SummaryTest {

    @Test
    void windowsGetTheRequestsThatStartedInThemAndTheFilesAreValid(@TempDir Path dir) throws Exception {
        LoadShape.SlaCapacity shape = new LoadShape.SlaCapacity(100, 200, 100, Duration.ofSeconds(1), 5, Duration.ZERO);
        RunStats stats = new RunStats(shape, List.of("GET", "POST", "PUT", "DELETE"));
        stats.userStarted();
        long t0 = System.nanoTime();
        // level-01: 99 fast OK requests and one slow failed one; level-02: 10 requests of 8 ms.
        for (int i = 0; i < 99; i++) {
            stats.record(t0 + 1_000_000L * i, t0 + 1_000_000L * i + 2_000_000L, true, 0);
        }
        stats.record(t0 + 500_000_000L, t0 + 520_000_000L, false, 1);
        for (int i = 0; i < 10; i++) {
            long start = t0 + 1_100_000_000L + i * 1_000_000L;
            stats.record(start, start + 8_000_000L, true, 0);
        }
        RunStats.Row total = stats.total();
        assertThat(total.requests()).isEqualTo(110);
        assertThat(total.ko()).isEqualTo(1);
        List<RunStats.Row> windows = stats.windowRows();
        assertThat(windows).extracting(RunStats.Row::requests).containsExactly(100L, 10L);
        assertThat(windows.get(0).p50()).isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(windows.get(0).max()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(0.05));
        assertThat(windows.get(0).rps()).isEqualTo(100.0);
        assertThat(windows.get(1).p99()).isCloseTo(8.0, org.assertj.core.data.Offset.offset(0.01));

        Instant loadStarted = Instant.parse("2025-01-01T00:00:01Z");
        Summary summary = new Summary("SlaCapacity", "run1", "i0", "http://127.0.0.1:1", "spring-tomcat", "mix", "open",
                shape.describe(), Summary.LoadUnit.ARRIVALS_PER_SECOND, true, "2025-01-01T00:00:00Z", loadStarted, 3,
                Map.of("target", "http://127.0.0.1:1", "odd", "a\"b,c"), total, windows, stats.windowOperationRows(), Double.NaN,
                new Summary.Sla(5, 1, 100, "level-02", Map.of("level-01", true, "level-02", false)));
        List<Path> files = summary.writeTo(dir);
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("results.csv", "operations.csv", "environment.json", "summary.json");

        JsonNode json = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertThat(json.get("simulation").asText()).isEqualTo("SlaCapacity");
        assertThat(json.get("total").get("requests").asLong()).isEqualTo(110);
        assertThat(json.get("windows").get(1).get("lat_p99_ms").asDouble()).isBetween(7.9, 8.1);
        assertThat(json.get("sla").get("capacity_rps").asDouble()).isEqualTo(100);
        assertThat(json.get("sla").get("verdicts").get("level-02").asBoolean()).isFalse();
        assertThat(json.get("knobs").get("odd").asText()).isEqualTo("a\"b,c");

        // The runner's reader takes the run: one row per level, in the runner's columns.
        List<ResultRow> rows = ResultsCsv.read(dir.resolve(ResultsCsv.FILE));
        assertThat(rows).extracting(ResultRow::targetRps).containsExactly(100.0, 200.0);
        ResultRow first = rows.get(0);
        assertThat(first.driver()).isEqualTo("gatling");
        assertThat(first.variant()).isEqualTo("spring-tomcat");
        assertThat(first.scenario()).isEqualTo("mix");
        assertThat(first.concurrency()).isZero();
        assertThat(first.throughput().requests()).isEqualTo(100);
        assertThat(first.throughput().errors()).isEqualTo(1);
        assertThat(first.throughput().rps()).isEqualTo(100.0);
        assertThat(first.latency().p50Ms()).isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(first.origin().startedAt()).isEqualTo("2025-01-01T00:00:01Z");
        assertThat(rows.get(1).origin().startedAt()).isEqualTo("2025-01-01T00:00:02Z");
        assertThat(first.origin().host()).isEqualTo(Machine.hostName());
        // What Gatling cannot know stays unknown rather than invented.
        assertThat(first.origin().jdk()).isEmpty();
        assertThat(first.mode()).isEmpty();
        assertThat(first.server().cpuUserMsPerReq()).isNaN();
        assertThat(first.server().rssMb()).isNaN();
        assertThat(first.server().gcCount()).isEqualTo(ResultRow.UNKNOWN_COUNT);
        assertThat(new ObjectMapper().readTree(dir.resolve("environment.json").toFile()).at("/run/driver").asText())
                .isEqualTo("gatling");

        // Each level by request name, keyed as its results.csv row: level-01's GETs and its failed POST, level-02's GETs.
        List<OperationRecord> operations = OperationsCsv.TABLE.read(dir.resolve(OperationsCsv.FILE));
        assertThat(operations).extracting(OperationRecord::operation, o -> o.key().targetRps(), OperationRecord::requests,
                OperationRecord::errors).containsExactly(tuple("GET", 100.0, 99L, 0L), tuple("POST", 100.0, 1L, 1L),
                tuple("GET", 200.0, 10L, 0L));
        assertThat(operations.get(0).key()).isEqualTo(rows.get(0).key());
        assertThat(operations.get(1).latency().p99Ms()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(0.05));
    }

    @Test
    void eachRequestNameHasItsOwnFiguresWhichAddUpToTheRunsInEveryFile(@TempDir Path dir) throws Exception {
        LoadShape.Throughput shape = new LoadShape.Throughput(20, Duration.ofSeconds(2));
        RunStats stats = new RunStats(shape, List.of("GET", "POST", "PUT", "DELETE"));
        stats.userStarted();
        long t0 = System.nanoTime();
        // Over one second: 80 GETs of 1 ms, 15 POSTs of 6 ms (one failed), 5 PUTs of 12 ms, no DELETE.
        int[][] plan = {{0, 80, 1}, {1, 15, 6}, {2, 5, 12}};
        int sent = 0;
        for (int[] p : plan) {
            for (int i = 0; i < p[1]; i++, sent++) {
                long start = t0 + 10_000_000L * sent;
                stats.record(start, start + p[2] * 1_000_000L, !(p[0] == 1 && i == 0), p[0]);
            }
        }
        RunStats.Row total = stats.total();
        List<RunStats.OperationRow> byName = stats.operationRows();
        assertThat(byName).extracting(RunStats.OperationRow::operation).containsExactly("GET", "POST", "PUT");
        assertThat(byName).extracting(o -> o.figures().requests()).containsExactly(80L, 15L, 5L);
        assertThat(byName).extracting(o -> o.figures().ko()).containsExactly(0L, 1L, 0L);
        assertThat(byName).extracting(o -> o.figures().p99()).map(p99 -> Math.round(p99)).containsExactly(1L, 6L, 12L);
        assertThat(byName).allSatisfy(o -> assertThat(o.figures().window()).isEqualTo(RunStats.WHOLE_RUN));
        // Over the run's time, as the total's: the names' rps add up to the run's.
        assertThat(byName.stream().mapToDouble(o -> o.figures().rps()).sum())
                .isCloseTo(total.rps(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(total.p99()).isGreaterThan(byName.get(0).figures().p99()).isLessThan(byName.get(2).figures().p99() + 0.1);

        Summary summary = new Summary("MaxThroughput", "run6", "i0", "http://127.0.0.1:1", "vertx", "mix", "closed",
                shape.describe(), Summary.LoadUnit.USERS, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), total,
                List.of(), byName, 20, null);
        summary.writeTo(dir);
        List<ResultRow> rows = ResultsCsv.read(dir.resolve(ResultsCsv.FILE));
        List<OperationRecord> operations = OperationsCsv.TABLE.read(dir.resolve(OperationsCsv.FILE));
        assertThat(operations).extracting(OperationRecord::operation).containsExactly("GET", "POST", "PUT");
        assertThat(operations).allSatisfy(o -> assertThat(o.key()).isEqualTo(rows.get(0).key()));
        assertThat(operations.stream().mapToLong(OperationRecord::requests).sum()).isEqualTo(rows.get(0).throughput().requests());
        assertThat(operations.get(2).latency().p99Ms()).isCloseTo(12.0, org.assertj.core.data.Offset.offset(0.02));

        JsonNode json = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("operations");
        assertThat(json).hasSize(3);
        assertThat(json.get(1).get("window").asText()).isEqualTo("all");
        assertThat(json.get(1).get("operation").asText()).isEqualTo("POST");
        assertThat(json.get(1).get("ko").asLong()).isEqualTo(1);
        assertThat(json.get(1).get("lat_p99_ms").asDouble()).isBetween(5.99, 6.01);
    }

    @Test
    void aClosedRunWithoutWindowsIsOneRowAtItsConcurrencyAndTheWarmUpIsNoRow(@TempDir Path dir) throws Exception {
        RunStats.Row total = new RunStats.Row("all", Double.NaN, 50, 50, 0, 1.0, 50, 1, 2, 3, 4, 5, Duration.ZERO);
        Summary whole = new Summary("MaxThroughput", "run2", "i0", "http://127.0.0.1:1", "vertx", "mix", "closed",
                "throughput", Summary.LoadUnit.USERS, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), total,
                List.of(), List.of(), 20, null);
        whole.writeTo(dir.resolve("whole"));
        List<ResultRow> rows = ResultsCsv.read(dir.resolve("whole").resolve(ResultsCsv.FILE));
        assertThat(rows).extracting(ResultRow::concurrency).containsExactly(20);
        assertThat(rows.get(0).targetRps()).isZero();
        assertThat(rows.get(0).origin().startedAt()).isEqualTo("2025-01-01T00:00:00Z");

        RunStats.Row warmup = new RunStats.Row("warmup", 5, 10, 10, 0, 1.0, 10, 1, 2, 3, 4, 5, Duration.ZERO);
        RunStats.Row level = new RunStats.Row("level-01", 5, 10, 10, 0, 1.0, 10, 1, 2, 3, 4, 5, Duration.ofSeconds(1));
        Summary stairs = new Summary("Staircase", "run3", "i0", "http://127.0.0.1:1", "vertx", "mix", "closed",
                "staircase", Summary.LoadUnit.USERS, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), total,
                List.of(warmup, level), List.of(), Double.NaN, null);
        assertThat(stairs.resultRows()).extracting(ResultRow::concurrency).containsExactly(5);

        // An SLA search that stopped before its last step: the step no request started in has no row.
        RunStats.Row notReached = new RunStats.Row("level-02", 10, 0, 0, 0, 1.0, 0, 0, 0, 0, 0, 0, Duration.ofSeconds(2));
        Summary stopped = new Summary("SlaCapacity", "run4", "i0", "http://127.0.0.1:1", "vertx", "mix", "open",
                "sla", Summary.LoadUnit.ARRIVALS_PER_SECOND, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), total,
                List.of(warmup, level, notReached), List.of(), Double.NaN, null);
        assertThat(stopped.resultRows()).extracting(ResultRow::targetRps).containsExactly(5.0);

        // A run without a single request: its latencies are unknown, not zero.
        RunStats.Row nothing = new RunStats.Row("all", Double.NaN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Duration.ZERO);
        Summary empty = new Summary("MaxThroughput", "run5", "i0", "http://127.0.0.1:1", "", "mix", "closed",
                "throughput", Summary.LoadUnit.USERS, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), nothing,
                List.of(), List.of(), 20, null);
        assertThat(empty.resultRows().get(0).latency().p99Ms()).isNaN();
    }
}
