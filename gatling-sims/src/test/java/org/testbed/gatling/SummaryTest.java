package org.testbed.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

        Summary summary = new Summary("SlaCapacity", "run1", "i0", "http://127.0.0.1:1", "mix", "open",
                shape.describe(), true, "2025-01-01T00:00:00Z", 3, Map.of("target", "http://127.0.0.1:1", "odd", "a\"b,c"),
                total, windows, new Summary.Sla(5, 1, 100, "level-02", Map.of("level-01", true, "level-02", false)));
        List<Path> files = summary.writeTo(dir, "summary");

        JsonNode json = new ObjectMapper().readTree(files.get(0).toFile());
        assertThat(json.get("simulation").asText()).isEqualTo("SlaCapacity");
        assertThat(json.get("total").get("requests").asLong()).isEqualTo(110);
        assertThat(json.get("windows").get(1).get("lat_p99_ms").asDouble()).isBetween(7.9, 8.1);
        assertThat(json.get("sla").get("capacity_rps").asDouble()).isEqualTo(100);
        assertThat(json.get("knobs").get("odd").asText()).isEqualTo("a\"b,c");

        List<String> csv = Files.readAllLines(files.get(1));
        assertThat(csv.get(0)).isEqualTo(String.join(",", Summary.CSV_COLUMNS));
        assertThat(csv).hasSize(4);
        assertThat(csv.get(1).split(",", -1)).hasSize(Summary.CSV_COLUMNS.size());
        assertThat(csv.get(2)).contains(",level-01,,100,").endsWith(",true");
        assertThat(csv.get(3)).endsWith(",false");
    }
}
