package org.testbed.runfolder.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.CustomNode;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;

/**
 * The answer a run folder gives: rankings with tie groups, and each finding rule firing where its
 * pattern is and silent where it is not, on synthetic run folders.
 */
class RunSummaryTest {

    /** A run's rows, steps and samples, built up and written as the runner would. */
    private static final class Run {
        final List<ResultRow> rows = new ArrayList<>();
        final Map<ResultRow.StepKey, StepRecord> steps = new LinkedHashMap<>();
        final List<SampleRecord> samples = new ArrayList<>();

        /** A step whose forks' samples are {@code forks[f][i]} req/s; its row the median, p99 3 × {@code p50}. */
        Run step(String variant, String mode, String scenario, int users, double p50Ms, int delayMs, boolean saturated,
                 double cpuMs, double[]... forks) {
            ResultRow.StepKey key = Records.closed(variant, scenario, users);
            List<Double> all = new ArrayList<>();
            for (int f = 0; f < forks.length; f++) {
                for (int i = 0; i < forks[f].length; i++) {
                    samples.add(Records.sample(key, f + 1, i + 1, forks[f][i], 3 * p50Ms, cpuMs));
                    all.add(forks[f][i]);
                }
            }
            all.sort(Double::compare);
            double median = all.size() % 2 == 1 ? all.get(all.size() / 2) : (all.get(all.size() / 2 - 1) + all.get(all.size() / 2)) / 2;
            ResultRow row = Records.row(key, mode, "21", median, 3 * p50Ms, cpuMs * 0.7, cpuMs * 0.3);
            rows.add(row);
            StepRecord step = Records.withDelay(Records.step(row, 10), delayMs);
            steps.put(key, saturated ? Records.saturated(step) : step);
            return this;
        }

        /** The step of {@code variant} with its threads queued {@code pct} % of its CPUs' time. */
        Run queued(String variant, double pct, double usPerReq, long threads) {
            steps.replaceAll((k, st) -> !k.variant().equals(variant) ? st : new StepRecord(st.key(), st.driver(),
                    new StepRecord.ServerSide(st.server().cpusBusyPct(), threads, new org.testbed.runfolder.csv.Saturation(usPerReq,
                            pct, 1, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN)), st.load(), st.setup(), st.files(),
                    st.repeats(), st.steadiness(), st.open(), st.cost()));
            return this;
        }

        RunSummary summary() {
            return new RunSummary("r1", Ranking.of(rows, steps, SamplesCsv.byStep(samples)),
                    FindingRules.of(rows, steps, SamplesCsv.byStep(samples), List.of()));
        }
    }

    @Test
    void syncVariantsAtTheirThreadsBoundAndAsyncAtTheUsersBoundAreSaidByLittlesLaw() {
        // 400 users on a 150 ms delay handled in 158 ms: 200 threads allow 1266 req/s (their users wait 316 ms), 400 users 2532.
        RunSummary s = new Run()
                .step("servlet-tomcat-sync", "sync", "delay", 400, 316, 150, false, 0.09, new double[] {1266, 1267}, new double[] {1265, 1267})
                .step("spring-tomcat", "sync", "delay", 400, 316, 150, false, 0.12, new double[] {1264, 1266}, new double[] {1267, 1266})
                .step("vertx", "async", "delay", 400, 158, 150, false, 0.03, new double[] {2531, 2533}, new double[] {2532, 2530})
                .summary();
        List<Finding> littles = s.findings().stream().filter(f -> f.rule().equals("littles-law")).toList();
        assertThat(littles).hasSize(2);
        assertThat(littles.get(0).text()).startsWith("delay c=400: servlet-tomcat-sync, spring-tomcat stop at 1,267 req/s:"
                + " 200 threads over a service time of 158 ms (the 150 ms delay and its handling) is Little's law for their pool");
        assertThat(littles.get(0).text()).endsWith("(median latency 316 ms)");
        assertThat(littles.get(1).text()).startsWith("delay c=400: vertx reach 2,532 req/s, the 400 users over a latency of 158 ms");
        assertThat(littles.get(0).evidence()).isEqualTo("scenario-delay");
        // The two sync variants tie (their throughputs are the same within noise); vertx leads alone.
        Ranking r = s.rankings().get(0);
        assertThat(r.places()).extracting(Ranking.Place::variant).containsExactly("vertx", "servlet-tomcat-sync", "spring-tomcat");
        assertThat(r.places()).extracting(Ranking.Place::rank).containsExactly(1, 2, 2);
        assertThat(r.places().get(0).efficiencyOfBest()).isEqualTo(1.0);
        assertThat(r.places().get(2).efficiencyOfBest()).isEqualTo(0.25, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(r.told()).isTrue();
    }

    @Test
    void aStepAwayFromEitherBoundOrWithoutADelayIsSaidNothingOf() {
        RunSummary s = new Run()
                .step("servlet-tomcat-sync", "sync", "delay", 400, 440, 150, false, 0.09, new double[] {900, 905}, new double[] {902, 899})
                .step("vertx", "async", "mix", 64, 1.2, 0, false, 0.014, new double[] {53_000, 53_500}, new double[] {53_200, 53_100})
                .summary();
        assertThat(s.findings()).isEmpty();
    }

    @Test
    void threadsQueuedForTheCpuAreOneLinePerLevelMostQueuedFirst() {
        Run run = new Run()
                .step("vertx", "async", "mix", 64, 0.6, 0, false, 0.015, new double[] {53_000, 53_500}, new double[] {53_200, 53_100})
                .step("spring-tomcat", "sync", "mix", 64, 2, 0, false, 0.05, new double[] {19_000, 19_100}, new double[] {19_200, 19_050})
                .step("servlet-tomcat-sync", "sync", "mix", 64, 1.5, 0, false, 0.03, new double[] {30_000, 30_100}, new double[] {30_200, 30_050});
        run.queued("spring-tomcat", 1155, 624, 87).queued("servlet-tomcat-sync", 1078, 370, 85).queued("vertx", 20, 5, 21);
        RunSummary s = run.summary();
        assertThat(s.findings()).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("queueing");
            assertThat(f.text()).startsWith("mix c=64: threads waited for a CPU, as a share of the time the server's CPUs had:"
                    + " spring-tomcat 1155 % (624 µs a request, 87 threads), servlet-tomcat-sync 1078 %");
            assertThat(f.text()).doesNotContain("vertx");
        });
    }

    @Test
    void aSaturatedLoadSideIsALowerBound() {
        RunSummary s = new Run()
                .step("jetty-handler", "async", "mix", 64, 0.5, 0, true, 0.0137, new double[] {72_000, 72_400}, new double[] {72_300, 72_100})
                .step("vertx", "async", "mix", 64, 0.6, 0, false, 0.015, new double[] {53_000, 53_500}, new double[] {53_200, 53_100})
                .summary();
        assertThat(s.findings()).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("saturated-load-side");
            assertThat(f.text()).startsWith("jetty-handler mix c=64: the load side, not the server, set its figure: a lower bound");
        });
        assertThat(s.rankings().get(0).places().get(0).saturated()).isTrue();
    }

    @Test
    void jvmsInTwoModesAreNamedAndSteadyOnesAreNot() {
        RunSummary s = new Run()
                .step("vertx", "async", "mix", 64, 0.6, 0, false, 0.015, new double[] {56_400, 57_000, 56_400},
                        new double[] {49_400, 48_100, 50_800})
                .step("servlet-tomcat-virtual", "virtual", "mix", 64, 0.9, 0, false, 0.02, new double[] {46_300, 46_400, 46_200},
                        new double[] {46_500, 46_350, 46_300})
                .summary();
        // One fork a side: a JVM of its own or the machine slowing between the two, the run cannot tell which.
        assertThat(s.findings()).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("forks-apart");
            assertThat(f.text()).startsWith("vertx mix c=64: its JVMs ran 15 % apart, 56,599 req/s (fork 1) against 49,421 (fork 2),"
                    + " more than their windows scatter").doesNotContain("two modes");
        });
        RunSummary four = new Run()
                .step("vertx", "async", "mix", 64, 0.6, 0, false, 0.015, new double[] {56_400, 57_000, 56_400},
                        new double[] {49_400, 48_100, 50_800}, new double[] {56_800, 56_300, 56_600},
                        new double[] {49_900, 49_200, 49_600})
                .summary();
        assertThat(four.findings()).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("two-modes");
            assertThat(f.text()).startsWith("vertx mix c=64: its JVMs ran 14 % apart").contains("(forks 1, 3) against")
                    .contains("(forks 2, 4): two modes, not one noisy figure");
        });
    }

    @Test
    void variantsWhoseIntervalsOverlapShareARankAndClearlyApartOnesDoNot() {
        RunSummary s = new Run()
                .step("a", "async", "mix", 64, 1, 0, false, 0.02, new double[] {50_000, 50_400}, new double[] {49_800, 50_300})
                .step("b", "async", "mix", 64, 1, 0, false, 0.02, new double[] {49_900, 50_200}, new double[] {50_100, 49_700})
                .step("c", "async", "mix", 64, 1, 0, false, 0.02, new double[] {40_000, 40_100}, new double[] {39_900, 40_200})
                .summary();
        assertThat(s.rankings().get(0).places()).extracting(Ranking.Place::rank).containsExactly(1, 1, 3);
        // Measured once: no noise estimate, so only a difference under compare's minimum effect (5 %) ties,
        // as an open model's 5,001 and 5,000 req/s do; 10 % apart is two ranks. And the page says so.
        RunSummary once = new Run()
                .step("a", "async", "mix", 64, 1, 0, false, 0.02, new double[] {50_000})
                .step("b", "async", "mix", 64, 1, 0, false, 0.02, new double[] {49_900})
                .step("c", "async", "mix", 64, 1, 0, false, 0.02, new double[] {45_000})
                .summary();
        assertThat(once.rankings().get(0).places()).extracting(Ranking.Place::rank).containsExactly(1, 1, 3);
        assertThat(once.rankings().get(0).told()).isFalse();
        assertThat(once.markdown()).contains("measured once, without a noise estimate: only differences under 5 %");
        assertThat(once.console()).contains("1. a 50,000 req/s").contains("1. b 49,900 req/s").contains("3. c 45,000 req/s")
                .contains("(measured once");
    }

    @Test
    void summaryMdIsAGithubFlavouredTableThatMatchesTheRanking(@TempDir Path dir) throws Exception {
        Run run = new Run()
                .step("servlet-tomcat-sync", "sync", "delay", 400, 316, 150, false, 0.09, new double[] {1266, 1267}, new double[] {1265, 1267})
                .step("vertx", "async", "delay", 400, 158, 150, false, 0.03, new double[] {2531, 2533}, new double[] {2532, 2530});
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), run.rows);
        StepsCsv.TABLE.write(dir.resolve(StepsCsv.FILE), new ArrayList<>(run.steps.values()));
        SamplesCsv.TABLE.write(dir.resolve(SamplesCsv.FILE), run.samples);
        RunSummary summary = RunSummary.of(dir);
        Path file = summary.write(dir);

        List<Extension> tables = List.of(TablesExtension.create());
        Node doc = Parser.builder().extensions(tables).build().parse(java.nio.file.Files.readString(file));
        List<List<String>> rows = new ArrayList<>();
        doc.accept(new AbstractVisitor() {
            @Override
            public void visit(CustomBlock block) {
                if (block instanceof TableBlock) {
                    collectRows(block, rows);
                }
                visitChildren(block);
            }
        });
        assertThat(rows).as("a header row and one row per variant, parsed as a table").hasSize(3);
        assertThat(rows.get(0)).startsWith("rank", "variant", "req/s", "interval", "to the one above", "requests per CPU-second",
                "of the best", "p99 ms");
        assertThat(rows.get(1)).startsWith("1", "vertx", "2,532");
        assertThat(rows.get(1).get(4)).as("the first has none above it").isEqualTo("–");
        assertThat(rows.get(2)).startsWith("2", "servlet-tomcat-sync", "1,267");
        assertThat(rows.get(2).get(4)).as("half of the one above, its windows paired by fork and round").startsWith("x0.50 [")
                .endsWith("paired");
        assertThat(java.nio.file.Files.readString(file)).contains("## Findings").contains("Little's law");
        assertThat(summary.console()).contains("delay c=400: 1. vertx 2,532 req/s").contains("* delay c=400: servlet-tomcat-sync stop at");
        assertThat(Conditions.PLAIN.label()).isEqualTo("plain");
    }

    /** Each table row's cells' text, header first. */
    private static void collectRows(Node table, List<List<String>> rows) {
        new Object() {
            void walk(Node n) {
                for (Node c = n.getFirstChild(); c != null; c = c.getNext()) {
                    if (c instanceof CustomNode && c.getClass().getSimpleName().equals("TableRow")) {
                        List<String> cells = new ArrayList<>();
                        for (Node cell = c.getFirstChild(); cell != null; cell = cell.getNext()) {
                            if (cell instanceof TableCell) {
                                cells.add(text(cell));
                            }
                        }
                        rows.add(cells);
                    } else {
                        walk(c);
                    }
                }
            }
        }.walk(table);
    }

    private static String text(Node n) {
        StringBuilder sb = new StringBuilder();
        for (Node c = n.getFirstChild(); c != null; c = c.getNext()) {
            sb.append(c instanceof Text t ? t.getLiteral() : text(c));
        }
        return sb.toString().strip();
    }
}
