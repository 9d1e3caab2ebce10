package org.testbed.runfolder.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.price.PriceList;
import org.testbed.runfolder.report.RunPricing;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.figure.Figure;

/**
 * Two synthetic run folders on two machines at two prices, compared on cost: the ratio of the cost
 * of a million requests B/A, with its interval from the repeats, in the console, compare.csv and
 * the page's data; and a pair where only one run has a price, which says so once.
 */
class CostComparisonTest {
    static final double[] WOBBLE = {1.0, 1.01, 0.99, 1.02, 0.985, 0.995};

    /**
     * A run of vertx and jetty-handler on the mix at 64 users, 2 forks × 3 iterations, {@code rps} each,
     * the server pinned to CPU 0 of 2 (or on a machine of its own when {@code ownMachine}).
     */
    static Path run(Path dir, String host, double vertxRps, double jettyRps, boolean ownMachine) throws Exception {
        Files.createDirectories(dir);
        List<ResultRow> rows = new ArrayList<>();
        List<StepRecord> steps = new ArrayList<>();
        List<SampleRecord> samples = new ArrayList<>();
        for (Object[] v : new Object[][] {{"vertx", vertxRps}, {"jetty-handler", jettyRps}}) {
            ResultRow.StepKey key = Records.closed((String) v[0], "mix", 64);
            double rps = (double) v[1];
            for (int i = 0; i < WOBBLE.length; i++) {
                samples.add(Records.sample(key, 1 + i / 3, 1 + i % 3, rps * WOBBLE[i], 4.0, 0.04));
            }
            ResultRow row = Records.row(key, rps, 4.0);
            rows.add(row);
            steps.add(Records.step(row, 10));
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);
        StepsCsv.TABLE.write(dir.resolve(StepsCsv.FILE), steps);
        SamplesCsv.TABLE.write(dir.resolve(SamplesCsv.FILE), samples);
        Files.writeString(dir.resolve("environment.json"), "{\"run\":{\"run_id\":\"r1\""
                + (ownMachine ? ",\"topology\":\"two machines\",\"server_host\":\"ubuntu@" + host + "\"" : "") + "},"
                + "\"machine\":{\"host\":\"" + host + "\",\"arch\":\"x86_64\",\"cpus\":2,\"cpu_model\":\"Test CPU\"},"
                + "\"pinning\":{\"server_cpus\":\"" + (ownMachine ? "" : "0") + "\",\"description\":\"d\"}}");
        return dir;
    }

    @Test
    void theCostRatioIsPriceTimesShareOverThroughputWithTheThroughputsIntervalTurnedOver(@TempDir Path dir) throws Exception {
        // One prices file for both machines: A is an x86 VM at 0.0416 an hour, B an arm VM at 0.0336.
        PriceList prices = PriceList.parse("vm-x86 = 0.0416\nvm-arm = 0.0336\n", "prices.conf");
        // A: the server pinned to 1 of 2 CPUs (half the machine); B: a machine of its own (all of it).
        Path a = run(dir.resolve("a"), "vm-x86", 20_000, 12_000, false);
        Path b = run(dir.resolve("b"), "vm-arm", 16_000, 12_000, true);
        assertThat(RunPricing.apply(a, prices, "test").pricing().hourly()).isEqualTo(0.0208);
        assertThat(RunPricing.apply(b, prices, "test").pricing().hourly()).isEqualTo(0.0336);

        Comparison c = CompareWriter.load(a, b);
        Comparison.Match vertx = c.matched().get(0);
        Comparison.Change rps = vertx.change(Figure.RPS);
        Comparison.Change cost = vertx.change(Figure.COST);
        // (0.0336 × 1) / (0.0416 × 0.5) = 1.615 for the same throughput; B's is 0.8 of A's: 2.019 per request.
        double hourly = 0.0336 / 0.0208;
        assertThat(cost.ratio()).isCloseTo(hourly / rps.ratio(), within(1e-9));
        assertThat(cost.ratio()).isCloseTo(hourly / 0.8, within(0.01));
        assertThat(cost.ciLow()).isCloseTo(hourly / rps.ciHigh(), within(1e-9));
        assertThat(cost.ciHigh()).isCloseTo(hourly / rps.ciLow(), within(1e-9));
        assertThat(cost.a()).isCloseTo(0.0208 / 72, within(1e-12));
        assertThat(cost.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(Comparison.verdictName(Figure.COST, cost.verdict())).isEqualTo("costlier");
        // jetty-handler: the same throughput on both, so only the prices differ: B costs 1.615× per request.
        assertThat(c.matched().get(1).change(Figure.COST).ratio()).isCloseTo(hourly, within(1e-6));
        assertThat(c.figures()).isEqualTo(8);

        String console = CompareWriter.table(c);
        assertThat(console).contains("A at 0.0416 per hour × server share 0.5 (the server was pinned to 1 of the machine's 2 CPUs (0))")
                .contains("B at 0.0336 per hour × server share 1 (the whole machine: the server ran on a machine of its own")
                .contains("cost B/A = 1.615").containsPattern("vertx mix c=64 cost 2\\.0\\d\\d× \\[\\d\\.\\d+, \\d\\.\\d+\\] costlier");

        Path csv = CompareWriter.writeCsv(c, dir.resolve("compare.csv"));
        List<List<String>> lines = Csv.parse(Files.readString(csv));
        List<String> header = lines.get(0);
        List<String> costLine = lines.stream().filter(l -> l.get(0).equals("vertx") && l.get(header.indexOf("metric")).equals("cost"))
                .findFirst().orElseThrow();
        assertThat(costLine.get(header.indexOf("verdict"))).isEqualTo("costlier");
        assertThat(Double.parseDouble(costLine.get(header.indexOf("ratio")))).isCloseTo(cost.ratio(), within(1e-4));
        assertThat(costLine.get(header.indexOf("a"))).isEqualTo("0.000288889");
        assertThat(lines).hasSize(1 + 8);

        String page = Files.readString(CompareWriter.html(a, b, c, dir.resolve("compare.html")));
        assertThat(page).contains("\"price_a\"").contains("\"price_b\"").contains("\"cost\"").contains("\"costlier\"");
    }

    @Test
    void withAPriceOnOneSideOnlyNoCostIsComparedAndTheConsoleSaysSoOnce(@TempDir Path dir) throws Exception {
        Path a = run(dir.resolve("a"), "vm-x86", 20_000, 12_000, false);
        Path b = run(dir.resolve("b"), "vm-arm", 16_000, 12_000, true);
        RunPricing.apply(a, PriceList.single(0.0416), "test");
        Comparison c = CompareWriter.load(a, b);
        assertThat(c.onlyOneSidePriced()).isTrue();
        assertThat(c.matched()).allSatisfy(m -> assertThat(m.find(Figure.COST)).isEmpty());
        assertThat(c.figures()).isEqualTo(6);
        String console = CompareWriter.table(c);
        assertThat(console.split("only A has a price", -1)).hasSize(2);
        assertThat(console).contains("only A has a price, so no cost is compared: price B with ./testbed report B_DIR"
                + " --price-per-hour PRICE (or --prices FILE)");
        assertThat(CompareWriter.table(CompareWriter.load(b, b))).doesNotContain("price");
    }
}
