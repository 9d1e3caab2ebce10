package org.testbed.runfolder.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.RatioInterval;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.figure.Figure;

class ComparisonTest {

    static ResultRow row(String variant, String scenario, int concurrency, double rate, double rps, double p99,
                         double user, double sys, String jdk) {
        return row(Records.key(variant, scenario, concurrency, rate), rps, p99, user, sys, jdk);
    }

    static ResultRow row(ResultRow.StepKey key, double rps, double p99, double user, double sys, String jdk) {
        return Records.row(key, "sync", jdk, rps, p99, user, sys);
    }

    @Test
    void ratiosAreBOverA() {
        List<ResultRow> a = List.of(row("vertx", "mix", 64, 0, 20000, 4.0, 0.03, 0.01, "17"));
        List<ResultRow> b = List.of(row("vertx", "mix", 64, 0, 30000, 3.0, 0.02, 0.02, "25"));
        Comparison c = Comparison.of(a, b);
        assertThat(c.matched()).hasSize(1);
        Comparison.Match m = c.matched().get(0);
        assertThat(m.rpsRatio()).isEqualTo(1.5);
        assertThat(m.p99Ratio()).isEqualTo(0.75);
        assertThat(m.cpuRatio()).isCloseTo(0.04 / 0.04, within(1e-12));
        assertThat(m.flags()).containsExactly("JDK 17 / 25");
    }

    @Test
    void stepsMatchByVariantScenarioAndLevelOnly() {
        List<ResultRow> a = List.of(
                row("vertx", "mix", 8, 0, 1000, 1, 0.1, 0.1, "17"),
                row("vertx", "mix", 64, 0, 2000, 2, 0.1, 0.1, "17"),
                row("vertx", "delay", 0, 5000, 4900, 160, 0.1, 0.1, "17"),
                row("spring-tomcat", "mix", 8, 0, 500, 3, 0.2, 0.1, "17"));
        List<ResultRow> b = List.of(
                row("vertx", "delay", 0, 5000, 4950, 155, 0.1, 0.1, "17"),
                row("vertx", "mix", 64, 0, 1000, 4, 0.2, 0.2, "17"),
                row("vertx", "mix", 256, 0, 900, 9, 0.2, 0.2, "17"));
        Comparison c = Comparison.of(a, b);
        assertThat(c.matched()).extracting(m -> m.key().level()).containsExactly("c=64", "5000/s");
        assertThat(c.matched().get(0).rpsRatio()).isEqualTo(0.5);
        assertThat(c.matched().get(0).p99Ratio()).isEqualTo(2.0);
        assertThat(c.matched().get(0).cpuRatio()).isCloseTo(2.0, within(1e-12));
        assertThat(c.onlyA()).extracting(k -> k.variant() + " " + k.level()).containsExactly("vertx c=8", "spring-tomcat c=8");
        assertThat(c.onlyB()).extracting(k -> k.variant() + " " + k.level()).containsExactly("vertx c=256");
    }

    @Test
    void aTlsStepIsNeverMatchedWithAPlainOne() {
        ResultRow plain = row("vertx", "mix", 64, 0, 20000, 4.0, 0.03, 0.01, "17");
        ResultRow tlsOnly = row("vertx", "mix", 64, 0, 12000, 6.0, 0.05, 0.01, "17").withConditions(Conditions.parse("tls"));
        ResultRow tlsGzip = row("vertx", "mix", 64, 0, 9000, 7.0, 0.07, 0.01, "17").withConditions(Conditions.parse("tls+gzip"));
        Comparison c = Comparison.of(List.of(plain, tlsOnly), List.of(tlsGzip, tlsOnly));
        assertThat(c.matched()).singleElement().satisfies(m -> {
            assertThat(m.key().conditions().label()).isEqualTo("tls");
            assertThat(m.rpsRatio()).isEqualTo(1.0);
        });
        assertThat(c.onlyA()).extracting(ResultRow.StepKey::describe).containsExactly("c=64");
        assertThat(c.onlyB()).extracting(ResultRow.StepKey::describe).containsExactly("c=64 tls+gzip");
    }

    @Test
    void aZeroOrMissingBaselineGivesNoRatio() {
        assertThat(Comparison.ratio(5, 0)).isNaN();
        assertThat(Comparison.ratio(Double.NaN, 2)).isNaN();
        assertThat(Comparison.ratio(3, Double.NaN)).isNaN();
        assertThat(Comparison.ratio(3, 2)).isEqualTo(1.5);
    }

    @Test
    void aRunComparedWithItselfIsAllOnes() {
        List<ResultRow> a = List.of(row("vertx", "mix", 8, 0, 1000, 1, 0.1, 0.05, "17"),
                row("jetty-handler", "mix", 8, 0, 800, 2, 0.2, 0.05, "17"));
        Comparison c = Comparison.of(a, a);
        assertThat(c.matched()).allSatisfy(m -> {
            assertThat(m.rpsRatio()).isEqualTo(1.0);
            assertThat(m.p99Ratio()).isEqualTo(1.0);
            assertThat(m.cpuRatio()).isEqualTo(1.0);
        });
        assertThat(CompareWriter.table(c)).contains("vertx").contains("1.000");
    }

    static SampleRecord sample(String variant, int concurrency, int repeat, double rps, double p99, double cpu) {
        return Records.sample(Records.closed(variant, "mix", concurrency), repeat, rps, p99, cpu);
    }

    /** Five repeats of a step, each figure scaled by its factor, with a small deterministic scatter. */
    static List<SampleRecord> repeats(String variant, int concurrency, double rps, double p99, double cpu) {
        double[] wobble = {1.0, 1.01, 0.99, 1.02, 0.985};
        List<SampleRecord> list = new ArrayList<>();
        for (int i = 0; i < wobble.length; i++) {
            list.add(sample(variant, concurrency, i + 1, rps * wobble[i], p99 * wobble[(i + 2) % 5], cpu * wobble[(i + 4) % 5]));
        }
        return list;
    }

    /** The results.csv row of a step: the medians of its samples. */
    static ResultRow median(List<SampleRecord> samples) {
        double cpu = MedianInterval.median(samples.stream().mapToDouble(s -> s.figures().cpuMsPerReq()).toArray());
        return row(samples.get(0).key(), MedianInterval.median(samples.stream().mapToDouble(s -> s.figures().rps()).toArray()),
                MedianInterval.median(samples.stream().mapToDouble(s -> s.figures().latP99Ms()).toArray()), cpu * 0.75, cpu * 0.25,
                "17");
    }

    @Test
    void repeatsTellAChangeFromNoise() {
        List<SampleRecord> aVertx = repeats("vertx", 64, 20000, 4.0, 0.04);
        List<SampleRecord> bVertx = repeats("vertx", 64, 14600, 5.2, 0.0408);
        List<SampleRecord> aJetty = repeats("jetty-handler", 64, 12000, 6.0, 0.05);
        List<SampleRecord> bJetty = repeats("jetty-handler", 64, 12100, 5.9, 0.05);
        Comparison c = Comparison.of(List.of(median(aVertx), median(aJetty)), SamplesCsv.byStep(concat(aVertx, aJetty)),
                List.of(median(bVertx), median(bJetty)), SamplesCsv.byStep(concat(bVertx, bJetty)));
        Comparison.Match vertx = c.matched().get(0);
        Comparison.Change rps = vertx.change(Figure.RPS);
        assertThat(rps.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(rps.ratio()).isCloseTo(0.73, within(0.005));
        assertThat(rps.ciLow()).isLessThan(0.73).isGreaterThan(0.70);
        assertThat(rps.ciHigh()).isGreaterThan(0.73).isLessThan(0.76);
        assertThat(rps.confidence()).isEqualTo(0.95);
        assertThat(rps.nA()).isEqualTo(5);
        assertThat(rps.nB()).isEqualTo(5);
        assertThat(rps.a()).isEqualTo(20000);
        assertThat(rps.b()).isEqualTo(14600);
        // p99 30 % higher: worse, so "slower"; CPU 2 % higher: within noise.
        assertThat(vertx.change(Figure.P99).verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(vertx.change(Figure.CPU).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(c.matched().get(1).changes()).extracting(Comparison.Change::verdict).containsOnly(Verdict.WITHIN_NOISE);
        assertThat(c.findings()).extracting(f -> f.change().figure()).containsExactly(Figure.RPS, Figure.P99);
        assertThat(c.withoutNoiseEstimate()).isZero();

        String table = CompareWriter.table(c);
        assertThat(table.lines().toList().get(0)).startsWith("changed beyond noise");
        assertThat(table.lines().toList().get(1)).matches("  vertx mix c=64 rps 0\\.73\\d× \\[0\\.7\\d\\d, 0\\.7\\d\\d\\] slower \\(throughput A 20000\\.0 req/s → B 14600\\.0 req/s; 95%, n 5/5\\)");
        assertThat(table.lines().toList().get(2)).startsWith("  vertx mix c=64 p99 1.3").contains("slower");
        assertThat(table).contains("within noise");
    }

    @Test
    void aWarmUpCutShortIsAFlagBesideTheVerdictNeverInsteadOfIt() {
        // Seen in a CI run on a busy machine: the delay warm-ups cut short, and a 10x change (127 -> 1251 req/s)
        // hidden behind "no noise estimate". The change is called; the caveat stands beside it.
        List<SampleRecord> a = repeats("servlet-tomcat-sync", 400, 127, 160, 0.3);
        List<SampleRecord> b = new ArrayList<>();
        for (SampleRecord s : repeats("servlet-tomcat-sync", 400, 1251, 160, 0.3)) {
            b.add(Records.withCaveats(s, new SampleRecord.Caveats(20, s.repeat() != 2, true, s.repeat() == 3 ? 40 : 0, false)));
        }
        Comparison c = Comparison.of(List.of(median(a)), SamplesCsv.byStep(a), List.of(median(b)), SamplesCsv.byStep(b));
        Comparison.Match m = c.matched().get(0);
        assertThat(m.change(Figure.RPS).verdict()).isEqualTo(Verdict.FASTER);
        assertThat(m.rpsRatio()).isCloseTo(1251 / 127.0, within(0.2));
        assertThat(m.flags()).containsExactly("warm-up cut short in 1 of 10 samples", "NOT QUIET in 1 of 10 samples");
        assertThat(CompareWriter.table(c).lines().toList().get(1)).endsWith("; warm-up cut short in 1 of 10 samples;"
                + " NOT QUIET in 1 of 10 samples)");
    }

    @Test
    void iterationsOfOneForkAreNotIndependentWitnessesOfTheNoise() {
        // Two forks a side, 8 iterations each, forks 8 % apart and iterations within 1.5 %: A and B are the
        // same server. Pooled, the 16 samples a side would call B 4 % slower; fork by fork it is within noise.
        List<SampleRecord> a = new ArrayList<>();
        List<SampleRecord> b = new ArrayList<>();
        double[] landedA = {20000, 21600};
        double[] landedB = {19200, 20740};
        for (int fork = 0; fork < 2; fork++) {
            for (int i = 0; i < 8; i++) {
                double scatter = 1 + 0.004 * (i - 3.5);
                a.add(iteration(fork + 1, i + 1, landedA[fork] * scatter));
                b.add(iteration(fork + 1, i + 1, landedB[fork] * scatter));
            }
        }
        Comparison c = Comparison.of(List.of(median(a)), SamplesCsv.byStep(a), List.of(median(b)), SamplesCsv.byStep(b));
        Comparison.Change rps = c.matched().get(0).change(Figure.RPS);
        assertThat(rps.ciLow()).isLessThan(1);
        assertThat(rps.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        double[] pooledA = a.stream().mapToDouble(s -> s.figures().rps()).toArray();
        double[] pooledB = b.stream().mapToDouble(s -> s.figures().rps()).toArray();
        assertThat(RatioInterval.of(pooledA, pooledB).ciHigh()).as("the same samples as independent forks").isLessThan(1);
    }

    private static SampleRecord iteration(int fork, int iteration, double rps) {
        return Records.sample(Records.closed("vertx", "mix", 64), fork, iteration, rps, 4, 0.04);
    }

    @Test
    void aTailLatencyChangeMustExceedFifteenPerCent() {
        // Seen in an A/A pair: vertx delay p99 173-185 ms, then 200-209 ms, both runs steady.
        List<SampleRecord> a = repeats("vertx", 400, 2600, 182, 0.043);
        List<SampleRecord> b = repeats("vertx", 400, 2600, 207, 0.043);
        Comparison c = Comparison.of(List.of(median(a)), SamplesCsv.byStep(a), List.of(median(b)), SamplesCsv.byStep(b));
        Comparison.Change p99 = c.matched().get(0).change(Figure.P99);
        assertThat(p99.ciLow()).as("every B sample above every A sample").isGreaterThan(1);
        assertThat(p99.noiseFloor()).isEqualTo(0.15);
        assertThat(p99.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        // The same 14 % on throughput is a change.
        List<SampleRecord> faster = repeats("vertx", 400, 2964, 182, 0.043);
        assertThat(Comparison.of(List.of(median(a)), SamplesCsv.byStep(a), List.of(median(faster)), SamplesCsv.byStep(faster))
                .matched().get(0).change(Figure.RPS).verdict()).isEqualTo(Verdict.FASTER);
    }

    @Test
    void singleSamplesGiveRatiosButNoVerdict() {
        List<ResultRow> a = List.of(row("vertx", "mix", 64, 0, 20000, 4.0, 0.03, 0.01, "17"));
        List<ResultRow> b = List.of(row("vertx", "mix", 64, 0, 10000, 8.0, 0.06, 0.02, "17"));
        // A run without samples.csv, and a run with one sample per step.
        Comparison c = Comparison.of(a, Map.of(), b, SamplesCsv.byStep(List.of(sample("vertx", 64, 1, 10000, 8, 0.08))));
        assertThat(c.matched().get(0).changes()).allSatisfy(ch -> {
            assertThat(ch.verdict()).isEqualTo(Verdict.NO_NOISE_ESTIMATE);
            assertThat(ch.ciLow()).isNaN();
            assertThat(ch.confidence()).isZero();
            assertThat(ch.nA()).isEqualTo(1);
            assertThat(ch.nB()).isEqualTo(1);
        });
        assertThat(c.matched().get(0).rpsRatio()).isEqualTo(0.5);
        assertThat(c.findings()).isEmpty();
        assertThat(c.withoutNoiseEstimate()).isEqualTo(3);
        assertThat(CompareWriter.table(c)).startsWith("nothing changed beyond noise (3 of 3 figures have no noise estimate");
    }

    @Test
    void aRunWithRepeatsComparedWithItselfChangesNothing() {
        List<SampleRecord> s = concat(repeats("vertx", 8, 1000, 2, 0.1), repeats("vertx", 64, 5000, 9, 0.08));
        List<ResultRow> rows = List.of(median(s.subList(0, 5)), median(s.subList(5, 10)));
        Comparison c = Comparison.of(rows, SamplesCsv.byStep(s), rows, SamplesCsv.byStep(s));
        assertThat(c.matched()).allSatisfy(m -> assertThat(m.changes()).allSatisfy(ch -> {
            assertThat(ch.ratio()).isEqualTo(1.0);
            assertThat(ch.ciLow()).isLessThan(1);
            assertThat(ch.ciHigh()).isGreaterThan(1);
            assertThat(ch.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        }));
        assertThat(CompareWriter.table(c)).startsWith("nothing changed beyond noise\nthis pair could not tell a change under: rps ")
                .containsPattern("within noise \\(could not tell a change under [0-9]+ %\\)");
        assertThat(c.matched()).allSatisfy(m -> assertThat(m.changes()).allSatisfy(ch ->
                assertThat(ch.smallestChangePct()).as("the interval's half-width or the floor, whichever is larger")
                        .isGreaterThanOrEqualTo(100 * ch.noiseFloor())
                        .isGreaterThanOrEqualTo(100 * (Math.sqrt(ch.ciHigh() / ch.ciLow()) - 1) - 1e-9)));
    }

    @Test
    void compareCsvHasOneRowPerStepAndMetric(@TempDir Path dir) throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        List<SampleRecord> sa = repeats("vertx", 64, 20000, 4.0, 0.04);
        List<SampleRecord> sb = repeats("vertx", 64, 14600, 4.0, 0.04);
        ResultsCsv.write(a.resolve(ResultsCsv.FILE), List.of(median(sa)));
        ResultsCsv.write(b.resolve(ResultsCsv.FILE), List.of(median(sb)));
        SamplesCsv.TABLE.create(a.resolve(SamplesCsv.FILE));
        SamplesCsv.TABLE.create(b.resolve(SamplesCsv.FILE));
        for (SampleRecord r : sa) {
            SamplesCsv.TABLE.append(a.resolve(SamplesCsv.FILE), r);
        }
        for (SampleRecord r : sb) {
            SamplesCsv.TABLE.append(b.resolve(SamplesCsv.FILE), r);
        }
        Comparison c = CompareWriter.load(a, b);
        Path csv = CompareWriter.writeCsv(c, b.resolve(CompareWriter.CSV_FILE));
        List<List<String>> lines = Csv.parse(Files.readString(csv, StandardCharsets.UTF_8));
        assertThat(lines.get(0)).containsExactly("variant", "scenario", "level", "metric", "a", "b", "ratio", "ci_low", "ci_high",
                "verdict", "confidence", "n_a", "n_b", "noise_floor", "flags", "smallest_change_pct");
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1).subList(0, 6)).containsExactly("vertx", "mix", "c=64", "rps", "20000.0", "14600.0");
        assertThat(Double.parseDouble(lines.get(1).get(6))).isCloseTo(0.73, within(0.005));
        assertThat(lines.get(1).get(9)).isEqualTo("slower");
        assertThat(lines.get(1).subList(10, 13)).containsExactly("0.9500", "5", "5");
        assertThat(lines.get(2).get(3)).isEqualTo("p99");
        assertThat(lines.get(2).get(9)).isEqualTo("within noise");
        assertThat(lines.get(3).get(3)).isEqualTo("cpu");
        // Without samples.csv in A: no interval (empty cells), no verdict.
        Files.delete(a.resolve(SamplesCsv.FILE));
        List<List<String>> single = Csv.parse(Files.readString(CompareWriter.writeCsv(CompareWriter.load(a, b), csv)));
        assertThat(single.get(1).subList(7, 11)).containsExactly("", "", "no noise estimate", "0.0000");
        assertThat(single.get(1).subList(11, 13)).containsExactly("1", "5");
    }

    @SafeVarargs
    static <T> List<T> concat(List<T>... lists) {
        List<T> all = new ArrayList<>();
        for (List<T> l : lists) {
            all.addAll(l);
        }
        return all;
    }

    @Test
    void aConditionIsPricedByMatchingItsStepsWithThePlainOnesOfOneRun(@TempDir Path dir) throws Exception {
        Conditions metrics = Conditions.parse("metrics");
        List<SampleRecord> plain = repeats("vertx", 64, 20000, 4.0, 0.040);
        List<SampleRecord> with = repeats("vertx", 64, 18000, 4.0, 0.046).stream().map(x -> x.withConditions(metrics)).toList();
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), List.of(median(plain), median(with).withConditions(metrics)));
        SamplesCsv.TABLE.create(dir.resolve(SamplesCsv.FILE));
        for (SampleRecord r : concat(plain, with)) {
            SamplesCsv.TABLE.append(dir.resolve(SamplesCsv.FILE), r);
        }
        // Without the option, a run compared with itself matches each condition with itself only.
        assertThat(CompareWriter.load(dir, dir).matched()).allSatisfy(m -> assertThat(m.rpsRatio()).isEqualTo(1.0));

        Comparison priced = CompareWriter.load(dir, Conditions.PLAIN, dir, metrics);
        assertThat(priced.matched()).singleElement().satisfies(m -> {
            assertThat(m.rpsRatio()).isCloseTo(0.9, within(0.01));
            assertThat(m.cpuRatio()).isCloseTo(1.15, within(0.01));
            assertThat(m.changes()).filteredOn(ch -> ch.figure() == Figure.RPS).singleElement()
                    .satisfies(ch -> assertThat(ch.verdict()).isEqualTo(Verdict.SLOWER));
        });
        assertThat(priced.onlyA()).isEmpty();
        assertThat(priced.onlyB()).isEmpty();
    }
}
