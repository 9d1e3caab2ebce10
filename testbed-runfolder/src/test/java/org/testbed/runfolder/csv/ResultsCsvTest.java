package org.testbed.runfolder.csv;

import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.Records;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.testbed.runfolder.stats.Spread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsCsvTest {
    /** Copied from docs/DESIGN.md, "Results": the columns every machine writes, in this order. */
    static final String DESIGN_COLUMNS = "run_id, started_at, host, arch, cpu_model, cpus, jdk, variant, mode, scenario, driver,"
            + " concurrency, target_rps, duration_s, requests, errors, rps, lat_p50_ms, lat_p90_ms, lat_p99_ms,"
            + " lat_p999_ms, lat_max_ms, cpu_user_ms_per_req, cpu_sys_ms_per_req, server_rss_mb, gc_count, gc_ms,"
            + " conditions";

    static ResultRow row(String variant, int concurrency, double rps, double p99, double user, double sys) {
        return new ResultRow(Records.origin(Records.QUOTED_CPU_MODEL, "17.0.15+6"), Records.closed(variant, "mix", concurrency),
                "sync", "testbed-nio", Records.throughput(rps), Records.latencies(p99), Records.server(user, sys));
    }

    @Test
    void headerIsDesignMdsListExactly() {
        List<String> design = Arrays.stream(DESIGN_COLUMNS.split(",")).map(String::strip).toList();
        assertThat(ResultsCsv.COLUMNS).containsExactlyElementsOf(design);
        assertThat(Csv.line(ResultsCsv.COLUMNS)).isEqualTo(String.join(",", design) + "\n");
        assertThat(ResultsCsv.TABLE.fields(row("v", 1, 1, 1, 1, 1))).hasSameSizeAs(design);
    }

    @Test
    void rowsRoundTripWithQuotedFields(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("results.csv");
        ResultsCsv.create(file);
        ResultRow a = row("vertx", 64, 12345.6, 2.5, 0.04, 0.01);
        ResultRow b = row("spring-tomcat", 8, 999.9, 7.125, 0.12345, 0.05);
        ResultsCsv.append(file, a);
        ResultsCsv.append(file, b);
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).contains("\"Intel(R) Xeon(R), \"\"Gold\"\" 6338\"");
        List<ResultRow> read = ResultsCsv.read(file);
        assertThat(read).containsExactly(a, b);
        assertThat(read.get(1).server().cpuMsPerReq()).isEqualTo(0.12345 + 0.05);
    }

    @Test
    void aMissingPerRequestFigureIsAnEmptyField() {
        ResultRow empty = Records.row(Records.closed("v", "s", 1), 0, 0, Double.NaN, Double.NaN);
        assertThat(ResultsCsv.TABLE.fields(empty).get(ResultsCsv.COLUMNS.indexOf("cpu_user_ms_per_req"))).isEmpty();
    }

    @Test
    void sidecarRoundTrips(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("steps.csv");
        StepsCsv.TABLE.create(file);
        StepRecord step = new StepRecord(Records.closed("vertx", "delay", 400),
                new StepRecord.DriverSide("testbed-nio", 1234, 65.5, 400, 0, 0), new StepRecord.ServerSide(100.0, 212),
                new StepRecord.LoadSide(30.0, 97.0, 1.5, 3.0, 96.0, true), new StepRecord.Setup("0", "1", 150, 200, ""),
                new StepRecord.Files("raw/vertx/delay-c0400.txt", Optional.empty(), Optional.empty()),
                // steps.csv keeps the spread; the median itself is results.csv's figure, read back as unknown
                new StepRecord.Repeats(3, new Spread(3, Double.NaN, 2600, 2680, 2600, 2680, 0.75),
                        new Spread(3, Double.NaN, 151.2, 160.9, 151.2, 160.9, 0.75),
                        new Spread(3, Double.NaN, 0.041, 0.044, 0.041, 0.044, 0.75)),
                new StepRecord.Steadiness(12.0, 1, 2), StepRecord.OpenModel.CLOSED, StepRecord.Cost.NONE);
        StepsCsv.TABLE.append(file, step);
        assertThat(StepsCsv.TABLE.read(file)).containsExactly(step);
        assertThat(StepsCsv.TABLE.read(dir.resolve("absent.csv"))).isEmpty();
    }

    @Test
    void aStepsCostRoundTripsAndAStepsCsvWithoutItReadsAsUnpriced(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("steps.csv");
        StepRecord unpriced = Records.step(Records.row(Records.closed("vertx", "mix", 64), 20000, 2.5), 10);
        // Figures a column writes exactly: the price as given, the share, six significant digits of cost.
        StepRecord priced = new StepRecord(unpriced.key(), unpriced.driver(), unpriced.server(), unpriced.load(),
                unpriced.setup(), unpriced.files(), unpriced.repeats(), unpriced.steadiness(), unpriced.open(),
                new StepRecord.Cost(0.0416, 0.5, 0.000288889, 0.000275132, 0.000304094));
        StepsCsv.TABLE.write(file, List.of(priced));
        // (steps.csv keeps a figure's spread, not its median: results.csv has it, so the repeats read back without it)
        assertThat(StepsCsv.TABLE.read(file)).singleElement().satisfies(s -> {
            assertThat(s.cost()).isEqualTo(priced.cost());
            assertThat(s.key()).isEqualTo(priced.key());
        });
        List<String> header = Csv.parse(Files.readString(file)).get(0);
        List<String> line = Csv.parse(Files.readString(file)).get(1);
        // Located by name: columns added after them (listen_overflow_samples) must not move them.
        int at = header.indexOf("price_per_hour");
        assertThat(header.subList(at, at + 5)).containsExactly("price_per_hour", "server_share",
                "cost_per_million", "cost_per_million_ci_low", "cost_per_million_ci_high");
        assertThat(line.subList(at, at + 5)).containsExactly("0.0416", "0.5", "0.000288889", "0.000275132",
                "0.000304094");

        // A run without a price writes the columns empty; a steps.csv from before them reads as unpriced.
        StepsCsv.TABLE.write(file, List.of(unpriced));
        assertThat(Csv.parse(Files.readString(file)).get(1).subList(at, at + 5)).containsOnly("");
        assertThat(StepsCsv.TABLE.read(file)).singleElement().extracting(StepRecord::cost).isEqualTo(StepRecord.Cost.NONE);
        Path old = dir.resolve("old.csv");
        List<String> fields = StepsCsv.TABLE.fields(priced);
        Files.writeString(old, Csv.line(StepsCsv.TABLE.names().subList(0, at))
                + Csv.line(fields.subList(0, at)));
        assertThat(StepsCsv.TABLE.read(old)).singleElement().satisfies(s -> {
            assertThat(s.cost().priced()).isFalse();
            assertThat(s.cost()).isEqualTo(StepRecord.Cost.NONE);
        });
    }

    @Test
    void aStepsPrecisionRoundTripsAndAnOlderStepsCsvReadsAsUnknown(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("steps.csv");
        StepRecord plain = Records.step(Records.row(Records.closed("vertx", "mix", 64), 20000, 2.5), 10);
        StepRecord.Precision precision = new StepRecord.Precision(5, 3, new StepRecord.Scatter(6.5, 1.25),
                new StepRecord.Scatter(12.0, 4.0), new StepRecord.Scatter(Double.NaN, 0.5), 5, StepRecord.Precision.MISSED);
        StepRecord step = plain.with(precision);
        StepsCsv.TABLE.write(file, List.of(step));
        assertThat(StepsCsv.TABLE.read(file)).singleElement().satisfies(s -> {
            assertThat(s.precision().forks()).isEqualTo(5);
            assertThat(s.precision().addedForks()).isEqualTo(3);
            assertThat(s.precision().rps()).isEqualTo(new StepRecord.Scatter(6.5, 1.25));
            assertThat(s.precision().cpu().forkSdPct()).isNaN();
            assertThat(s.precision().missed()).isTrue();
            assertThat(s.precision().targetPct()).isEqualTo(5);
        });
        List<String> header = Csv.parse(Files.readString(file)).get(0);
        int at = header.indexOf("forks");
        Path old = dir.resolve("old.csv");
        Files.writeString(old, Csv.line(header.subList(0, at)) + Csv.line(StepsCsv.TABLE.fields(step).subList(0, at)));
        assertThat(StepsCsv.TABLE.read(old)).singleElement().satisfies(s -> {
            assertThat(s.precision().status()).isEmpty();
            assertThat(s.precision().targetPct()).isNaN();
        });
    }

    @Test
    void foldingSamplesRecomputesTheCostFromTheirThroughput() {
        org.testbed.runfolder.price.Pricing price = new org.testbed.runfolder.price.Pricing(0.0416,
                org.testbed.runfolder.price.ServerShare.of("0", 2), "--price-per-hour", Optional.empty());
        StepRecord one = Records.step(Records.row(Records.closed("vertx", "mix", 64), 20000, 2.5), 10);
        StepRecord sample = new StepRecord(one.key(), one.driver(), one.server(), one.load(), one.setup(), one.files(),
                one.repeats(), one.steadiness(), one.open(), StepRecord.Cost.of(price, 20000, Spread.single(20000)));
        Spread rps = new Spread(6, 19000, 18000, 21000, 18500, 20500, 0.95);
        StepRecord folded = sample.over(new StepRecord.Repeats(6, rps, one.repeats().p99(), one.repeats().cpu()),
                one.steadiness(), one.open(), false);
        assertThat(folded.cost().perMillion()).isEqualTo(price.costPerMillion(19000));
        assertThat(folded.cost().ciLow()).isEqualTo(price.costPerMillion(20500));
        assertThat(folded.cost().ciHigh()).isEqualTo(price.costPerMillion(18500));
        // And a step read back from steps.csv, priced after the run at results.csv's throughput.
        assertThat(one.priced(price, 19000).cost().perMillion()).isEqualTo(price.costPerMillion(19000));
        assertThat(one.over(one.repeats(), one.steadiness(), one.open(), false).cost()).isEqualTo(StepRecord.Cost.NONE);
    }

    @Test
    void conditionsRoundTripAndAFileWithoutThemReadsAsPlain(@TempDir Path dir) throws Exception {
        ResultRow plain = row("vertx", 64, 12345.6, 2.5, 0.04, 0.01);
        List<String> f = ResultsCsv.TABLE.fields(plain);
        ResultRow tls = ResultsCsv.TABLE.parse().apply(new CsvRow(IntStream.range(0, f.size()).boxed().collect(Collectors
                .toMap(ResultsCsv.COLUMNS::get, i -> ResultsCsv.COLUMNS.get(i).equals("conditions") ? "tls+gzip" : f.get(i))),
                "a line of results.csv"));
        assertThat(tls.conditions()).isEqualTo(new Conditions(true, true, false));
        assertThat(tls.key()).isNotEqualTo(plain.key());
        Path file = dir.resolve("results.csv");
        ResultsCsv.write(file, List.of(plain, tls));
        assertThat(ResultsCsv.read(file)).containsExactly(plain, tls);
        assertThat(Files.readAllLines(file).get(2)).endsWith(",tls+gzip");

        // A results.csv from before the column: every row plain.
        Path old = dir.resolve("old.csv");
        Files.writeString(old, Csv.line(ResultsCsv.COLUMNS.subList(0, ResultsCsv.COLUMNS.size() - 1))
                + Csv.line(f.subList(0, f.size() - 1)));
        assertThat(ResultsCsv.read(old)).singleElement().extracting(ResultRow::conditions).isEqualTo(Conditions.PLAIN);
    }

    @Test
    void conditionsSayWhichAreOnAndRefuseUnknownOnes() {
        assertThat(Conditions.PLAIN.label()).isEqualTo("plain");
        assertThat(new Conditions(true, false, false).label()).isEqualTo("tls");
        assertThat(new Conditions(false, true, true).label()).isEqualTo("gzip+metrics");
        for (Conditions c : List.of(Conditions.PLAIN, new Conditions(true, true, true), new Conditions(false, true, false))) {
            assertThat(Conditions.parse(c.label())).isEqualTo(c);
        }
        assertThat(Conditions.parse("")).isEqualTo(Conditions.PLAIN);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Conditions.parse("tls+zstd"))
                .hasMessageContaining("unknown condition 'zstd'");
    }

    @Test
    void csvParserHandlesQuotesCommasAndLineBreaks() {
        List<List<String>> parsed = Csv.parse("a,\"b,c\",\"d\"\"e\"\n\"multi\nline\",,x\n");
        assertThat(parsed).containsExactly(List.of("a", "b,c", "d\"e"), List.of("multi\nline", "", "x"));
    }
}
