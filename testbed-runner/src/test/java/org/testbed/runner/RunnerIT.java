package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runner.counters.PerfStat;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runfolder.report.Chromium;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;

/**
 * End to end, as a user runs it: the packaged runner jar, a real memcached, two variants from
 * their jars, two short steps each; then the CSV (every docs/DESIGN.md column filled, server CPU per
 * request > 0), the sidecar, the raw files, report.html opened in headless Chromium, and compare.
 */
class RunnerIT {
    /** Fast-starting variants first; the first two whose jars exist are run. */
    private static final List<String> PREFERRED = List.of("vertx", "servlet-tomcat-sync", "jetty-handler",
            "servlet-jetty-sync", "servlet-tomcat-async", "servlet-jetty-async", "spring-tomcat");

    private static Path root;
    private static Path run;
    private static List<String> variants;
    private static String output;

    @BeforeAll
    static void runTwoVariantsTwoSteps() throws Exception {
        root = RunnerJar.ROOT;
        VariantManifest manifest = VariantManifest.load(root.resolve(VariantManifest.FILE_NAME));
        variants = new ArrayList<>();
        for (String name : PREFERRED) {
            Variant v = manifest.find(name);
            if (variants.size() < 2 && v.minJdk() <= 17 && Files.isRegularFile(v.jarIn(root))) {
                variants.add(name);
            }
        }
        assertThat(variants).as("two variant jars packaged before this test (from " + PREFERRED + ")").hasSize(2);
        run = Path.of("target", "e2e-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        output = runner("run", "--root", root.toString(), "--variants", String.join(",", variants),
                "--scenarios", "mix", "--concurrency", "4,16", "--duration", "2s", "--warmup", "1s",
                "--run-id", "e2e", "--counters", "--price-per-hour", "0.0416", "--out", run.toString());
    }

    @Test
    void csvHasDesignColumnsAndEveryFieldOfEveryRow() throws Exception {
        List<List<String>> lines = Csv.parse(Files.readString(run.resolve(ResultsCsv.FILE)));
        assertThat(lines.get(0)).containsExactlyElementsOf(ResultsCsv.COLUMNS);
        assertThat(lines).hasSize(1 + 2 * 2);
        for (List<String> line : lines.subList(1, lines.size())) {
            assertThat(line).hasSameSizeAs(ResultsCsv.COLUMNS);
            for (int i = 0; i < line.size(); i++) {
                assertThat(line.get(i)).as("column " + ResultsCsv.COLUMNS.get(i) + " of " + line).isNotBlank();
            }
        }
        List<ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE));
        assertThat(rows).extracting(ResultRow::variant).containsExactly(variants.get(0), variants.get(0),
                variants.get(1), variants.get(1));
        assertThat(rows).extracting(ResultRow::concurrency).containsExactly(4, 16, 4, 16);
        for (ResultRow r : rows) {
            assertThat(r.origin().runId()).isEqualTo("e2e");
            assertThat(r.scenario()).isEqualTo("mix");
            assertThat(r.driver()).isEqualTo("testbed-nio");
            assertThat(r.origin().cpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(r.origin().arch()).isIn("x86_64", "aarch64");
            assertThat(r.throughput().requests()).isPositive();
            assertThat(r.throughput().errors()).as("errors of " + r).isZero();
            assertThat(r.throughput().rps()).isPositive();
            assertThat(r.throughput().durationS()).isEqualTo(2.0);
            assertThat(r.latency().p50Ms()).isPositive();
            assertThat(r.latency().p50Ms()).isLessThanOrEqualTo(r.latency().p90Ms());
            assertThat(r.latency().p90Ms()).isLessThanOrEqualTo(r.latency().p99Ms());
            assertThat(r.latency().p99Ms()).isLessThanOrEqualTo(r.latency().p999Ms());
            assertThat(r.latency().p999Ms()).isLessThanOrEqualTo(r.latency().maxMs());
            assertThat(r.server().cpuMsPerReq()).as("server CPU ms per request of " + r.variant()).isPositive();
            assertThat(r.server().cpuUserMsPerReq()).isGreaterThanOrEqualTo(0);
            assertThat(r.server().cpuSysMsPerReq()).isGreaterThanOrEqualTo(0);
            assertThat(r.server().rssMb()).isGreaterThan(10);
            assertThat(r.server().gcCount()).isGreaterThanOrEqualTo(0);
            assertThat(r.server().gcMs()).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void sidecarRawFilesAndEnvironment() throws Exception {
        List<StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE));
        assertThat(steps).hasSize(4);
        for (StepRecord s : steps) {
            assertThat(s.driver().cpuPct()).isPositive();
            assertThat(s.driver().peakConnections()).isEqualTo(s.key().concurrency());
            assertThat(s.server().threads()).as("the server's threads after the step, from /proc/PID/stat").isPositive();
            assertThat(run.resolve(s.files().raw())).isRegularFile();
            assertThat(Files.readString(run.resolve(s.files().raw()))).contains("/stat: utime").contains("HdrHistogram");
        }
        // --price-per-hour: each step's cost per million requests at its throughput, the server's share from its pinning.
        List<ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE));
        Pricing price = Pricing.read(run).orElseThrow();
        assertThat(price.pricePerHour()).isEqualTo(0.0416);
        for (StepRecord s : steps) {
            ResultRow row = rows.stream().filter(r -> r.key().equals(s.key())).findFirst().orElseThrow();
            assertThat(s.cost().pricePerHour()).isEqualTo(0.0416);
            assertThat(s.cost().serverShare()).isEqualTo(price.share().fraction()).isGreaterThan(0).isLessThanOrEqualTo(1);
            assertThat(s.cost().perMillion()).isCloseTo(price.costPerMillion(row.throughput().rps()),
                    org.assertj.core.api.Assertions.withinPercentage(0.01));
        }
        assertThat(output).contains("price: 0.0416 per hour × server share");
        String env = Files.readString(run.resolve("environment.json"));
        assertThat(env).contains("\"price_per_hour\" : 0.0416");
        assertThat(env).contains("\"lscpu\"").contains("\"kernel\"").contains("\"cpu_governor\"").contains("\"pinning\"")
                .contains("\"manifest\"").contains("\"flags\"").contains("\"wall_time_s\"");
        assertThat(output).contains("ETA").contains("req/s").contains("ms/req");
    }

    /** --counters: every step has a counters.csv row whose figures are counted or n/a with the reason. */
    @Test
    void countersPerRequestOrTheReasonTheyAreMissing() throws Exception {
        List<CounterRecord> counters = CountersCsv.TABLE.read(run.resolve(CountersCsv.FILE));
        assertThat(counters).as("one row per sample").hasSameSizeAs(SamplesCsv.TABLE.read(run.resolve(SamplesCsv.FILE)));
        assertThat(CountersCsv.medians(counters)).as("one median per step").hasSize(4);
        for (CounterRecord c : counters) {
            assertThat(c.requests()).isPositive();
            double[] figures = c.figures();
            for (int i = 0; i < figures.length; i++) {
                if (Double.isNaN(figures[i])) {
                    String event = CounterRecord.figureColumns().get(i);
                    assertThat(c.unavailable()).as(event + " is n/a, so the reason is given").isNotBlank().contains(": ");
                }
            }
            if (PerfStat.find() == null) {
                assertThat(c.unavailable()).contains("perf is not installed");
            } else {
                // Software events need no PMU: with perf present they are counted on any Linux.
                assertThat(c.perRequest().taskClockMs()).as("task-clock ms per request of " + c.variant()).isPositive();
                assertThat(c.perRequest().contextSwitches()).isGreaterThanOrEqualTo(0);
                assertThat(c.perRequest().pageFaults()).isGreaterThanOrEqualTo(0);
            }
        }
        String raw = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE)).get(0).files().raw();
        assertThat(Files.readString(run.resolve(raw))).contains("perf stat of the server over the step");
        assertThat(Files.readString(run.resolve("environment.json"))).contains("\"perf_event_paranoid\"");
        String dom = Chromium.dumpDom(run.resolve("report.html"));
        assertThat(dom).contains("data-render=\"ok\"").contains("Counters per request (perf stat on the server process)");
    }

    @Test
    void reportRendersInHeadlessChromium() throws Exception {
        Path report = run.resolve("report.html");
        assertThat(report).isRegularFile();
        String dom = Chromium.dumpDom(report);
        assertThat(dom).contains("data-render=\"ok\"").contains("<pre id=\"render-errors\" hidden=\"\"></pre>");
        assertThat(dom).contains("mix: throughput vs concurrency").contains("mix: p99 latency vs concurrency")
                .contains("server CPU per request").contains("Environment");
        assertThat(dom.split("<svg", -1).length - 1).isGreaterThanOrEqualTo(3);
        Chromium.screenshot(report, run.resolve("report.png"));
        assertThat(run.resolve("report.png")).isNotEmptyFile();
    }

    @Test
    void reportRegeneratesAndARunComparedWithItselfIsAllOnes() throws Exception {
        Files.delete(run.resolve("report.html"));
        runner("report", run.toString());
        assertThat(run.resolve("report.html")).isNotEmptyFile();
        String table = runner("compare", run.toString(), run.toString(), "--out", run.resolve("compare-self.html").toString());
        assertThat(table).contains("matched 4 step(s)").contains("nothing changed beyond noise");
        // One line per step and metric (rps, p99, cpu, and cost: the run has a price; then the saturation
        // readings, runq_wait and involuntary_cs, two more a step): variant scenario level metric A B B/A ...
        List<String> lines = table.lines().filter(l -> l.startsWith(variants.get(0)) || l.startsWith(variants.get(1))).toList();
        assertThat(lines).allSatisfy(l -> assertThat(l.split("\\s+")[6]).isEqualTo("1.000"))
                .filteredOn(l -> List.of("rps", "p99", "cpu", "cost").contains(l.split("\\s+")[3])).hasSize(16);
        assertThat(Csv.parse(Files.readString(run.resolve("compare.csv")))).hasSize(1 + lines.size());
        assertThat(Chromium.dumpDom(run.resolve("compare-self.html"))).contains("data-render=\"ok\"");
    }

    private static String runner(String... args) throws IOException, InterruptedException {
        return RunnerJar.run(240, args);
    }
}
