package org.testbed.gatling;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.testbed.runfolder.ResultRow;
import org.testbed.runfolder.ResultsCsv;
import org.testbed.scenario.LoadShape;

class SummaryTest {

    @Test
    void windowsGetTheRequestsThatStartedInThemAndTheFilesAreValid(@TempDir Path dir) throws Exception {
        LoadShape.SlaCapacity shape = new LoadShape.SlaCapacity(100, 200, 100, Duration.ofSeconds(1), 5, Duration.ZERO);
        RunStats stats = new RunStats(shape);
        stats.userStarted();
        long t0 = System.nanoTime();
        // level-01: 99 fast OK requests and one slow failed one; level-02: 10 requests of 8 ms.
        for (int i = 0; i < 99; i++) {
            stats.record(t0 + 1_000_000L * i, t0 + 1_000_000L * i + 2_000_000L, true);
        }
        stats.record(t0 + 500_000_000L, t0 + 520_000_000L, false);
        for (int i = 0; i < 10; i++) {
            long start = t0 + 1_100_000_000L + i * 1_000_000L;
            stats.record(start, start + 8_000_000L, true);
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
                Map.of("target", "http://127.0.0.1:1", "odd", "a\"b,c"), total, windows, Double.NaN,
                new Summary.Sla(5, 1, 100, "level-02", Map.of("level-01", true, "level-02", false)));
        List<Path> files = summary.writeTo(dir);
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("results.csv", "environment.json", "summary.json");

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
    }

    @Test
    void aClosedRunWithoutWindowsIsOneRowAtItsConcurrencyAndTheWarmUpIsNoRow(@TempDir Path dir) throws Exception {
        RunStats.Row total = new RunStats.Row("all", Double.NaN, 50, 50, 0, 1.0, 50, 1, 2, 3, 4, 5, Duration.ZERO);
        Summary whole = new Summary("MaxThroughput", "run2", "i0", "http://127.0.0.1:1", "vertx", "mix", "closed",
                "throughput", Summary.LoadUnit.USERS, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), total,
                List.of(), 20, null);
        whole.writeTo(dir.resolve("whole"));
        List<ResultRow> rows = ResultsCsv.read(dir.resolve("whole").resolve(ResultsCsv.FILE));
        assertThat(rows).extracting(ResultRow::concurrency).containsExactly(20);
        assertThat(rows.get(0).targetRps()).isZero();
        assertThat(rows.get(0).origin().startedAt()).isEqualTo("2025-01-01T00:00:00Z");

        RunStats.Row warmup = new RunStats.Row("warmup", 5, 10, 10, 0, 1.0, 10, 1, 2, 3, 4, 5, Duration.ZERO);
        RunStats.Row level = new RunStats.Row("level-01", 5, 10, 10, 0, 1.0, 10, 1, 2, 3, 4, 5, Duration.ofSeconds(1));
        Summary stairs = new Summary("Staircase", "run3", "i0", "http://127.0.0.1:1", "vertx", "mix", "closed",
                "staircase", Summary.LoadUnit.USERS, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), total,
                List.of(warmup, level), Double.NaN, null);
        assertThat(stairs.resultRows()).extracting(ResultRow::concurrency).containsExactly(5);

        // An SLA search that stopped before its last step: the step no request started in has no row.
        RunStats.Row notReached = new RunStats.Row("level-02", 10, 0, 0, 0, 1.0, 0, 0, 0, 0, 0, 0, Duration.ofSeconds(2));
        Summary stopped = new Summary("SlaCapacity", "run4", "i0", "http://127.0.0.1:1", "vertx", "mix", "open",
                "sla", Summary.LoadUnit.ARRIVALS_PER_SECOND, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), total,
                List.of(warmup, level, notReached), Double.NaN, null);
        assertThat(stopped.resultRows()).extracting(ResultRow::targetRps).containsExactly(5.0);

        // A run without a single request: its latencies are unknown, not zero.
        RunStats.Row nothing = new RunStats.Row("all", Double.NaN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Duration.ZERO);
        Summary empty = new Summary("MaxThroughput", "run5", "i0", "http://127.0.0.1:1", "", "mix", "closed",
                "throughput", Summary.LoadUnit.USERS, false, "2025-01-01T00:00:00Z", null, 20, Map.of(), nothing,
                List.of(), 20, null);
        assertThat(empty.resultRows().get(0).latency().p99Ms()).isNaN();
    }
}
