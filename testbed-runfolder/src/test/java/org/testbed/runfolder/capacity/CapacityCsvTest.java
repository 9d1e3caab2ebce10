package org.testbed.runfolder.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.Records;

class CapacityCsvTest {

    private static CapacityRecord search(String variant, Conditions conditions, int repeat, double capacity) {
        return Records.capacity(variant, conditions, repeat, capacity);
    }

    @Test
    void recordsReadBackAsWritten(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(CapacityCsv.FILE);
        CapacityCsv.TABLE.create(file);
        CapacityRecord written = search("vertx", new Conditions(true, true, false), 2, 41_250);
        CapacityCsv.TABLE.append(file, written);
        assertThat(Files.readString(file)).startsWith(String.join(",", CapacityCsv.TABLE.names()));
        assertThat(CapacityCsv.TABLE.read(file)).containsExactly(written);
    }

    @Test
    void aPricedSearchRecordsTheCostOfAMillionRequestsAtItsCapacity(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(CapacityCsv.FILE);
        org.testbed.runfolder.price.Pricing price = new org.testbed.runfolder.price.Pricing(0.0416,
                org.testbed.runfolder.price.ServerShare.of("0", 2), "--price-per-hour", java.util.Optional.empty());
        CapacityRecord priced = search("vertx", Conditions.PLAIN, 1, 41_250).priced(price);
        CapacityCsv.TABLE.write(file, List.of(priced, search("spring", Conditions.PLAIN, 1, 0).priced(price)));
        assertThat(Files.readAllLines(file).get(1)).endsWith(",0.000140067");
        List<CapacityRecord> read = CapacityCsv.TABLE.read(file);
        assertThat(read.get(0).costPerMillion()).as("six significant digits").isCloseTo(0.0208 / (41_250 * 3600.0) * 1e6,
                org.assertj.core.api.Assertions.withinPercentage(0.001));
        assertThat(read.get(1).costPerMillion()).as("nothing met: no cost per request").isNaN();
        assertThat(Files.readAllLines(file).get(2)).endsWith(",");
    }

    @Test
    void theSearchesOfEachPassFoldIntoAMedianAndItsRange() {
        List<CapacityCsv.Summary> summaries = CapacityCsv.summaries(List.of(
                search("vertx", Conditions.PLAIN, 1, 30_000), search("spring", Conditions.PLAIN, 1, 9_000),
                search("vertx", Conditions.PLAIN, 2, 34_000), search("vertx", new Conditions(true, false, false), 1, 20_000),
                search("vertx", Conditions.PLAIN, 3, 31_000)));
        assertThat(summaries).extracting(s -> s.first().variant() + " " + s.first().conditions())
                .containsExactly("vertx plain", "spring plain", "vertx tls");
        CapacityCsv.Summary vertx = summaries.get(0);
        assertThat(vertx.searches()).hasSize(3);
        assertThat(vertx.capacity().median()).isEqualTo(31_000);
        assertThat(vertx.capacity().min()).isEqualTo(30_000);
        assertThat(vertx.capacity().max()).isEqualTo(34_000);
        assertThat(summaries.get(2).capacity().median()).isEqualTo(20_000);
    }
}
