package org.testbed.runfolder.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.SyntheticRun;
import org.testbed.runfolder.SyntheticRun.Operation;
import org.testbed.runfolder.compare.OperationComparison.OperationChange;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.report.Chromium;
import org.testbed.runfolder.stats.ForkPool;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.figure.Figure;

class OperationComparisonTest {
    /** A mix of 20 k req/s whose step p99 is 4 ms: reads at 2 ms p99, writes at 3 ms. */
    private static final SyntheticRun.Step MIX = SyntheticRun.Step.of(Records.closed("vertx", "mix", 64), 20000, 4, 0.04)
            .withOperations(Operation.mix(2, 3, 3, 3));
    /** Another variant's mix, unchanged between the runs: its operations lend their spread between forks. */
    private static final SyntheticRun.Step OTHER = SyntheticRun.Step.of(Records.closed("spring-tomcat", "mix", 64), 9000, 8, 0.09)
            .withOperations(Operation.mix(5, 7, 7, 7));

    @TempDir
    Path dir;

    @Test
    void aPutTwiceAsSlowAtP99IsCalledAndTheOtherOperationsAreNot() throws Exception {
        Path a = SyntheticRun.write(dir.resolve("a"), List.of(MIX, OTHER));
        Path b = SyntheticRun.write(dir.resolve("b"), List.of(MIX.withOperations(Operation.mix(2, 3, 6, 3)), OTHER));
        Comparison c = CompareWriter.load(a, b);
        OperationComparison ops = CompareWriter.operations(a, b, c);

        // The step's own figures did not move: only the breakdown shows the slower write.
        assertThat(c.findings()).isEmpty();
        assertThat(ops.notes()).isEmpty();
        assertThat(ops.steps()).hasSize(2);
        OperationComparison.Step mix = ops.steps().get(0);
        assertThat(mix.operations()).containsExactly("GET", "POST", "PUT", "DELETE");
        OperationChange put = mix.change("PUT", Figure.P99);
        assertThat(put.judgement().verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(put.judgement().ratio()).isCloseTo(2.0, within(1e-3));
        assertThat(put.judgement().ciLow()).isGreaterThan(1.0);
        assertThat(put.a()).isCloseTo(3.0, within(0.05));
        assertThat(put.b()).isCloseTo(6.0, within(0.1));
        assertThat(put.judgement().nA()).isEqualTo(6);
        assertThat(put.judgement().nB()).isEqualTo(6);
        for (Figure f : OperationComparison.FIGURES) {
            assertThat(mix.change("GET", f).judgement().verdict()).as("GET %s", f.key()).isEqualTo(Verdict.WITHIN_NOISE);
            assertThat(mix.change("GET", f).judgement().ratio()).as("GET %s", f.key()).isCloseTo(1.0, within(1e-3));
        }
        // Only its tail moved: its throughput and median did not.
        assertThat(mix.change("PUT", Figure.RPS).judgement().verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(mix.change("PUT", Figure.P50).judgement().verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(ops.findings()).singleElement().isEqualTo(put);

        String text = ops.text();
        assertThat(text).contains("changed beyond noise:\n    vertx mix c=64 PUT p99 2.000× [")
                .containsPattern("\n  vertx mix c=64 +PUT +1\\.000 +\\[0\\.\\d+, 1\\.\\d+\\] +1\\.000 +\\[0\\.\\d+, 1\\.\\d+\\] +2\\.000 +\\[1\\.\\d+, 2\\.\\d+\\] +slower\n")
                .containsPattern("\n  vertx mix c=64 +GET +1\\.000 +\\[0\\.\\d+, 1\\.\\d+\\] +1\\.000 +\\[0\\.\\d+, 1\\.\\d+\\] +1\\.000 +\\[0\\.\\d+, 1\\.\\d+\\]\n")
                .doesNotContain("no per-operation figures");
    }

    @Test
    void anOperationIsJudgedByTheRuleOfTheStepsFigures() throws Exception {
        Path a = SyntheticRun.write(dir.resolve("a"), List.of(MIX));
        Path b = SyntheticRun.write(dir.resolve("b"), List.of(MIX.withOperations(Operation.mix(2, 3, 6, 3))));
        OperationChange put = CompareWriter.operations(a, b, CompareWriter.load(a, b)).steps().get(0).change("PUT", Figure.P99);
        // The same samples as a step's p99 go through Comparison's own path: the same ratio, interval and floor.
        List<double[]> forksA = List.of(new double[] {3 / 1.0, 3 / 0.98, 3 / 1.02}, new double[] {3 / 0.99, 3 / 1.01, 3 / 0.97});
        List<double[]> forksB = forksA.stream().map(f -> Arrays.stream(f).map(v -> 2 * v).toArray()).toList();
        Comparison.Change asStep = Comparison.change(Figure.P99, put.a(), put.b(), rounded(forksA), rounded(forksB),
                ForkPool.NONE, ForkPool.NONE);
        assertThat(put.judgement().ratio()).isCloseTo(asStep.ratio(), within(1e-9));
        assertThat(put.judgement().ciLow()).isCloseTo(asStep.ciLow(), within(1e-9));
        assertThat(put.judgement().ciHigh()).isCloseTo(asStep.ciHigh(), within(1e-9));
        assertThat(put.judgement().noiseFloor()).isCloseTo(asStep.noiseFloor(), within(1e-9));
        assertThat(put.judgement().verdict()).isEqualTo(asStep.verdict());
    }

    /** Samples as operations.csv keeps them: latencies to the microsecond. */
    private static List<double[]> rounded(List<double[]> forks) {
        return forks.stream().map(f -> Arrays.stream(f).map(v -> Math.round(v * 1000) / 1000.0).toArray()).toList();
    }

    @Test
    void compareOperationsCsvHasARowPerStepOperationAndFigure() throws Exception {
        Path a = SyntheticRun.write(dir.resolve("a"), List.of(MIX, OTHER));
        Path b = SyntheticRun.write(dir.resolve("b"), List.of(MIX.withOperations(Operation.mix(2, 3, 6, 3)), OTHER));
        OperationComparison ops = CompareWriter.operations(a, b, CompareWriter.load(a, b));
        Path csv = CompareWriter.writeOperationsCsv(ops, dir.resolve(OperationComparison.FILE));
        List<List<String>> rows = Csv.parse(Files.readString(csv));
        assertThat(rows.get(0)).containsExactlyElementsOf(OperationComparison.TABLE.names());
        assertThat(rows).hasSize(1 + 2 * 4 * OperationComparison.FIGURES.size());
        assertThat(rows.subList(1, rows.size())).filteredOn(r -> r.get(10).equals("slower"))
                .singleElement().satisfies(r -> assertThat(r.subList(0, 7)).containsExactly("vertx", "mix", "c=64", "PUT", "p99",
                        "3.015", "6.031"));
    }

    @Test
    @Tag("process")
    void aRunWithoutOperationsComparesAsBeforeAndSaysWhatIsMissing() throws Exception {
        SyntheticRun.Step plain = SyntheticRun.Step.of(MIX.key(), MIX.rps(), MIX.p99Ms(), MIX.cpuMsPerReq());
        Path a = SyntheticRun.write(dir.resolve("a"), List.of(plain));
        Path b = SyntheticRun.write(dir.resolve("b"), List.of(MIX));
        assertThat(a.resolve("operations.csv")).doesNotExist();
        Comparison c = CompareWriter.load(a, b);
        assertThat(c.matched()).singleElement().satisfies(m -> assertThat(m.rpsRatio()).isCloseTo(1.0, within(1e-9)));
        OperationComparison ops = CompareWriter.operations(a, b, c);
        assertThat(ops.steps()).isEmpty();
        assertThat(ops.notes()).singleElement().asString().startsWith("A has no per-operation figures (no operations.csv");
        assertThat(ops.text()).startsWith("\nper operation: A has no per-operation figures");
        assertThat(Csv.parse(Files.readString(CompareWriter.writeOperationsCsv(ops, dir.resolve("ops.csv"))))).hasSize(1);

        String dom = Chromium.dumpDom(CompareWriter.html(a, b, c, dir.resolve("compare.html")));
        assertThat(dom).contains("data-render=\"ok\"").contains("Per operation: A has no per-operation figures")
                .doesNotContain("id=\"operation-changes\"");
    }

    @Test
    void aWrkRunsNotAvailableRowsAreNoOperationsToCompare() throws Exception {
        Path a = SyntheticRun.write(dir.resolve("a"), List.of(MIX));
        Path b = SyntheticRun.write(dir.resolve("b"), List.of(MIX));
        // What a wrk run of the mix writes: one "n/a (why)" row per sample instead of its operations.
        Path operations = a.resolve(OperationsCsv.FILE);
        List<OperationRecord> measured = OperationsCsv.TABLE.read(operations);
        Files.delete(operations);
        OperationsCsv.TABLE.create(operations);
        for (OperationRecord r : measured.stream().filter(r -> r.operation().equals("GET")).toList()) {
            OperationsCsv.TABLE.append(operations, OperationRecord.notAvailable(r.key(), r.repeat(), r.iteration(),
                    "wrk keeps one latency histogram for all requests", r.requests(), r.errors(), r.rps()));
        }

        OperationComparison ops = CompareWriter.operations(a, b, CompareWriter.load(a, b));
        assertThat(ops.steps()).isEmpty();
        assertThat(ops.notes()).containsExactly("vertx mix c=64: no per-operation figures in A");
    }

    @Test
    void anOperationOfOneRunOnlyIsNamedAndASingleRouteStepIsLeftOut() throws Exception {
        SyntheticRun.Step json = SyntheticRun.Step.of(Records.closed("vertx", "json", 64), 30000, 2, 0.02)
                .withOperations(List.of(new Operation("/json", 1, 0.5, 2)));
        List<Operation> noDelete = Operation.mix(2, 3, 3, 3).subList(0, 3);
        Path a = SyntheticRun.write(dir.resolve("a"), List.of(MIX, json));
        Path b = SyntheticRun.write(dir.resolve("b"), List.of(MIX.withOperations(noDelete), json));
        OperationComparison ops = CompareWriter.operations(a, b, CompareWriter.load(a, b));
        assertThat(ops.steps()).singleElement().satisfies(s -> {
            assertThat(s.match().key().scenario()).isEqualTo("mix");
            assertThat(s.operations()).containsExactly("GET", "POST", "PUT");
        });
        assertThat(ops.notes()).containsExactly("vertx mix c=64: DELETE in A only");
        assertThat(ops.text()).contains("per operation: vertx mix c=64: DELETE in A only");
    }

    @Test
    void thePriceOfAConditionIsComparedPerOperationToo() throws Exception {
        Conditions tls = Conditions.parse("tls");
        ResultRow.StepKey key = MIX.key();
        SyntheticRun.Step overTls = new SyntheticRun.Step(new ResultRow.StepKey(key.variant(), key.scenario(), key.concurrency(),
                key.targetRps(), tls), MIX.rps(), MIX.p99Ms(), MIX.cpuMsPerReq(), 0, 2, 3, "", Operation.mix(2, 3, 6, 3));
        Path run = SyntheticRun.write(dir.resolve("both"), List.of(MIX, overTls));
        Comparison c = CompareWriter.load(run, Conditions.PLAIN, run, tls);
        OperationComparison ops = CompareWriter.operations(run, Conditions.PLAIN, run, tls, c);
        assertThat(ops.notes()).isEmpty();
        assertThat(ops.findings()).singleElement().satisfies(f -> {
            assertThat(f.operation()).isEqualTo("PUT");
            assertThat(f.figure()).isEqualTo(Figure.P99);
            assertThat(f.judgement().verdict()).isEqualTo(Verdict.SLOWER);
        });
    }

    @Test
    @Tag("process")
    void thePageShowsEachOperationWithItsVerdicts() throws Exception {
        Path a = SyntheticRun.write(dir.resolve("a"), List.of(MIX, OTHER));
        Path b = SyntheticRun.write(dir.resolve("b"), List.of(MIX.withOperations(Operation.mix(2, 3, 6, 3)), OTHER));
        Path page = CompareWriter.html(a, b, CompareWriter.load(a, b), dir.resolve("compare.html"));
        String dom = Chromium.dumpDom(page);
        assertThat(dom).contains("data-render=\"ok\"").contains("<h2>Per operation, B/A</h2>")
                .containsPattern("<li class=\"worse\">vertx mix c=64 PUT p99 2\\.000× \\[\\d\\.\\d{3}, \\d\\.\\d{3}\\] slower");
        // The page's lead, which says the steps did not change, points to the operation that did.
        assertThat(dom).contains("Nothing changed beyond noise (6 figures compared).")
                .contains("<a href=\"#operations\">1 per-operation figure(s) changed beyond noise</a>");
        assertThat(dom.indexOf("id=\"operations-changed\"")).isLessThan(dom.indexOf("<svg"));
        // One row per operation of the two steps, each with its three figures' verdicts in the page's colours.
        int section = dom.indexOf("id=\"operations\"");
        assertThat(section).isPositive();
        String table = dom.substring(dom.indexOf("<tbody>", section), dom.indexOf("</tbody>", section));
        assertThat(table.split("<tr").length - 1).isEqualTo(8);
        assertThat(table).contains("<td class=\"worse\">2.000</td>").contains("<td class=\"l noise\">within noise (n 6/6)</td>");
        Chromium.screenshot(page, Path.of("target", "compare-operations.png"));
    }
}
