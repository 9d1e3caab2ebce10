package org.testbed.runfolder.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.compare.CompareWriter;
import org.testbed.runfolder.environment.EmulationSection;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.StoreLatency;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runfolder.price.PriceList;
import org.testbed.runfolder.summary.RunSummary;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.timeline.GcReading;
import org.testbed.runfolder.timeline.GcReadingsCsv;
import org.testbed.runfolder.timeline.IntervalLogFile;

/**
 * A synthetic run with every kind of chart (a staircase, a single-level delay step with the
 * Little's-law bound, an open-model rate series, a saturated step), rendered in headless Chromium.
 */
@Tag("process")
class ReportWriterTest {

    static void syntheticRun(Path dir, double scale) throws Exception {
        syntheticRun(dir, variant -> scale, 1, false);
    }

    /** Deterministic scatter of the repeats of a step around its median (the first is the median). */
    static final double[] WOBBLE = {1.0, 0.98, 1.02, 0.99, 1.01, 0.97, 1.03};

    /**
     * A run of three variants, throughput scaled per variant by {@code scaleOf}; with
     * {@code repeats > 1} each step is measured that many times (samples.csv), its row holds the
     * medians and its steps.csv record the spreads; spring-tomcat mix c=150 is not steady.
     * With {@code mixedJdks} the variants ran on JDKs 17 and 21.
     */
    static void syntheticRun(Path dir, ToDoubleFunction<String> scaleOf, int repeats, boolean mixedJdks) throws Exception {
        List<ResultRow> rows = new ArrayList<>();
        List<StepRecord> steps = new ArrayList<>();
        List<SampleRecord> samples = new ArrayList<>();
        String[][] variants = {{"spring-tomcat", "sync"}, {"vertx", "async"}, {"servlet-jetty-async", "async"}};
        for (String[] v : variants) {
            double scale = scaleOf.applyAsDouble(v[0]);
            String jdk = mixedJdks && v[0].equals("vertx") ? "21" : "17";
            for (int c : new int[] {50, 100, 150, 200}) {
                double rps = scale * (v[1].equals("sync") ? 8000 : 15000) * Math.min(1, c / 100.0);
                boolean unsteady = repeats > 1 && c == 150 && v[0].equals("spring-tomcat");
                ResultRow row = row(v[0], v[1], "mix", c, 0, rps, c / rps * 1000 * 1.8, jdk);
                StepRecord step = step(row);
                repeated(rows, steps, samples, repeats, row, c == 200 && v[0].equals("vertx") ? Records.saturated(step) : step,
                        unsteady ? 2 : 0);
            }
            double delayRps = v[1].equals("sync") ? 1320 : 2600;
            ResultRow delay = row(v[0], v[1], "delay", 400, 0, delayRps, 160, jdk);
            repeated(rows, steps, samples, repeats, delay, Records.withDelay(step(delay), 150), 0);
            for (int r : new int[] {1000, 3000, 5000}) {
                ResultRow open = row(v[0], v[1], "plaintext", 0, r, Math.min(r, scale * 4000), r > 4000 ? 900 : 2, jdk);
                repeated(rows, steps, samples, repeats, open, step(open), 0);
            }
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);
        StepsCsv.TABLE.create(dir.resolve(StepsCsv.FILE));
        for (StepRecord s : steps) {
            StepsCsv.TABLE.append(dir.resolve(StepsCsv.FILE), s);
        }
        if (repeats > 1) {
            SamplesCsv.TABLE.create(dir.resolve(SamplesCsv.FILE));
            for (SampleRecord s : samples) {
                SamplesCsv.TABLE.append(dir.resolve(SamplesCsv.FILE), s);
            }
        }
        Files.writeString(dir.resolve("environment.json"), "{\"run\":{\"run_id\":\"r1\",\"delay_ms\":150,\"threads\":200,"
                + "\"mixed_jdks\":" + mixedJdks + ",\"repeat\":" + repeats + ","
                + "\"saturation_pct\":90,\"profile\":\"default\",\"problems\":[]},\"machine\":{\"host\":\"h\",\"arch\":\"x86_64\","
                + "\"cpus\":2,\"cpu_model\":\"Test CPU </script> & co\",\"lscpu\":\"Architecture: x86_64\"},"
                + "\"pinning\":{\"description\":\"server on CPU 0\"},\"jdks\":[{\"vendor\":\"Debian\",\"version\":\"17\",\"flags\":\"-XX:+UseSerialGC\"}]}");
    }

    /**
     * Adds a step measured {@code repeats} times: samples scattered by {@link #WOBBLE} around
     * {@code median}'s figures, the row itself (the medians), and the step with the spreads.
     */
    private static void repeated(List<ResultRow> rows, List<StepRecord> steps, List<SampleRecord> samples, int repeats,
                                 ResultRow median, StepRecord step, int notSteady) {
        rows.add(median);
        if (repeats <= 1) {
            steps.add(step);
            return;
        }
        double[] rps = new double[repeats];
        double[] p99 = new double[repeats];
        double[] cpu = new double[repeats];
        double warmupS = step.steadiness().warmupS();
        for (int i = 0; i < repeats; i++) {
            rps[i] = median.throughput().rps() * WOBBLE[i];
            p99[i] = median.latency().p99Ms() / WOBBLE[i];
            cpu[i] = median.server().cpuMsPerReq() * WOBBLE[(i + 1) % repeats];
            samples.add(Records.withCaveats(Records.sample(median.key(), i + 1, rps[i], p99[i], cpu[i]),
                    new SampleRecord.Caveats(warmupS, true, i >= notSteady, 0, false)));
        }
        steps.add(step.over(new StepRecord.Repeats(repeats, MedianInterval.of(rps), MedianInterval.of(p99), MedianInterval.of(cpu)),
                new StepRecord.Steadiness(warmupS, notSteady, notSteady > 0 ? 1 : 0), StepRecord.OpenModel.CLOSED,
                step.load().saturated()));
    }

    private static ResultRow row(String variant, String mode, String scenario, int c, double rate, double rps, double p99, String jdk) {
        return Records.row(Records.key(variant, scenario, c, rate), mode, jdk, rps, p99, 0.03, 0.012);
    }

    /** The row's step, measured once; vertx warmed up 12 s, the others 7 s. */
    private static StepRecord step(ResultRow row) {
        return Records.step(row, row.variant().equals("vertx") ? 12 : 7);
    }

    /** The SLA line of a capacity search's chart comes from the bound this code parsed, not from the script's own reading. */
    @Test
    void capacityProbesDrawTheirSlaFromTheBoundParsedHere(@TempDir Path dir) throws Exception {
        List<ResultRow> rows = new ArrayList<>();
        StepsCsv.TABLE.create(dir.resolve(StepsCsv.FILE));
        for (double rate : new double[] {1000, 2000, 4000}) {
            ResultRow row = row("vertx", "async", "mix", 0, rate, rate, rate / 1000, "17");
            rows.add(row);
            StepsCsv.TABLE.append(dir.resolve(StepsCsv.FILE), Records.withSla(step(row), "p99<=5ms"));
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);
        Files.writeString(dir.resolve("environment.json"), "{\"run\":{\"run_id\":\"r1\"}}");

        Path report = ReportWriter.write(dir);

        assertThat(Files.readString(report, StandardCharsets.UTF_8))
                .containsPattern("\"sla_percentile\"\\s*:\\s*99\\.0").containsPattern("\"sla_bound_ms\"\\s*:\\s*5\\.0")
                .containsPattern("\"not_quiet_pct\"\\s*:\\s*15\\.0");
        String dom = Chromium.dumpDom(report);
        assertThat(dom).contains("data-render=\"ok\"").contains("SLA p99&lt;=5ms");
    }

    @Test
    void reportIsSelfContainedAndRendersEveryChartWithoutScriptErrors(@TempDir Path dir) throws Exception {
        syntheticRun(dir, 1.0);
        Path report = ReportWriter.write(dir);
        String html = Files.readString(report, StandardCharsets.UTF_8);
        // Nothing loaded from anywhere: no external script, stylesheet or URL (the SVG namespace is a name, not a fetch).
        assertThat(html.replace("'http://www.w3.org/2000/svg'", "")).doesNotContainPattern("(?i)<script[^>]+src=")
                .doesNotContainPattern("(?i)<link[^>]+href=").doesNotContain("https://").doesNotContain("http://");
        // The data block cannot be closed early by a value that contains "</script>".
        assertThat(html.indexOf("</script>")).isGreaterThan(html.indexOf("id=\"data\""));
        assertThat(html).contains("Test CPU <\\/script> & co");

        String dom = Chromium.dumpDom(report);
        assertThat(dom).contains("data-render=\"ok\"").contains("<pre id=\"render-errors\" hidden=\"\"></pre>");
        assertThat(count(dom, "<svg")).isGreaterThanOrEqualTo(9);
        assertThat(dom).contains("Little's law, sync: 200 threads / 0.150 s = 1,333 req/s");
        assertThat(dom).contains("SATURATED");
        // Every steps.csv column is on the page under its own name, drawn by no line of its own in the script.
        for (String column : StepsCsv.TABLE.names()) {
            assertThat(dom).as("steps.csv's column %s on the page", column).contains(">" + column + "</th>");
        }
        Matcher status = Pattern.compile("Rendered (\\d+) chart\\(s\\) from (\\d+) row\\(s\\)").matcher(dom);
        assertThat(status.find()).isTrue();
        assertThat(Integer.parseInt(status.group(2))).isEqualTo(24);
    }

    @Test
    void aRecordedStepShowsItsPinsBesideItsCpu(@TempDir Path dir) throws Exception {
        syntheticRun(dir, 1.0);
        ResultRow.StepKey delay = ResultsCsv.read(dir.resolve(ResultsCsv.FILE)).stream().map(ResultRow::key)
                .filter(k -> k.variant().equals("vertx") && k.scenario().equals("delay")).findFirst().orElseThrow();
        JfrCsv.TABLE.create(dir.resolve(JfrCsv.FILE));
        JfrCsv.TABLE.append(dir.resolve(JfrCsv.FILE), new JfrRecord(delay, 1, 1, 7800, 3.0,
                new JfrRecord.Events(30, 1200, 42), new JfrRecord.Events(2, 31.5, 18.25), new JfrRecord.Events(4, 40, 20), 120.5,
                15.25, "java.lang.Object 88ms 4", "raw/vertx/delay-c0400.jfr"));
        String dom = Chromium.dumpDom(ReportWriter.write(dir));
        assertThat(dom).contains("data-render=\"ok\"").contains(">pinned virtual threads (JFR)</th>")
                .contains(">allocated kB/req (JFR)</th>").contains("30, 1200 ms, longest 42 ms").contains("2, 31.5 ms, longest 18.3 ms")
                .contains("href=\"raw/vertx/delay-c0400.jfr\">java.lang.Object 88ms 4</a>");
    }

    @Test
    void comparePageRendersBothEnvironmentsAndRatios(@TempDir Path dir) throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        syntheticRun(a, 1.0);
        syntheticRun(b, 1.25);
        Path page = CompareWriter.html(a, b, CompareWriter.load(a, b), dir.resolve("compare.html"));
        String dom = Chromium.dumpDom(page);
        assertThat(dom).contains("data-render=\"ok\"").contains("Environments side by side").contains("1.250");
        assertThat(count(dom, "<svg")).isEqualTo(3);
    }

    /** An emulated server's run: the report and the compare page say so above their figures, and name both archs. */
    @Test
    void anEmulatedServerIsSaidAboveTheFiguresOfTheReportAndTheComparePage(@TempDir Path dir) throws Exception {
        Path a = Files.createDirectories(dir.resolve("x86"));
        Path b = Files.createDirectories(dir.resolve("arm64"));
        syntheticRun(a, 1.0);
        syntheticRun(b, 0.03);
        Files.writeString(a.resolve("environment.json"), "{\"run\":{\"run_id\":\"x86\"},\"server_machine\":{\"host\":\"vm\","
                + "\"arch\":\"x86_64\",\"cpus\":2,\"cpu_model\":\"EPYC\",\"jdks\":[{\"version\":\"17.0.15\",\"os_arch\":\"x86_64\"}]}}");
        Files.writeString(b.resolve("environment.json"), "{\"run\":{\"run_id\":\"arm64\"},\"server_machine\":{\"host\":\"vm\","
                + "\"arch\":\"x86_64\",\"cpus\":2,\"cpu_model\":\"EPYC\",\"jdks\":[{\"version\":\"17.0.21\",\"os_arch\":\"aarch64\"}],"
                + "\"emulation\":{\"jvm_arch\":\"aarch64\",\"machine_arch\":\"x86_64\",\"executable\":\"/usr/bin/qemu-aarch64-static\","
                + "\"caveat\":\"" + EmulationSection.caveat("aarch64", "x86_64") + "\"}}}");

        String report = Chromium.dumpDom(ReportWriter.write(b));
        assertThat(report).contains("data-render=\"ok\"").contains("id=\"emulation-note\"")
                .contains("Emulated: the server's aarch64 JVM was emulated on an x86_64 machine: its figures are mechanics, not performance");
        assertThat(Chromium.dumpDom(ReportWriter.write(a))).contains("data-render=\"ok\"").doesNotContain("id=\"emulation-note\"");

        String compare = Chromium.dumpDom(CompareWriter.html(a, b, CompareWriter.load(a, b), dir.resolve("compare.html")));
        assertThat(compare).contains("data-render=\"ok\"")
                .contains("A ran on x86_64; server machine vm, EPYC, 2 CPUs; JDK 17.0.15. B ran on aarch64, emulated on x86_64 by"
                        + " /usr/bin/qemu-aarch64-static; server machine vm, EPYC, 2 CPUs; JDK 17.0.21. Servers of different archs:"
                        + " x86_64 against aarch64.")
                .contains("Emulated: B: the server's aarch64 JVM was emulated");
        assertThat(CompareWriter.platforms(a, b)).startsWith("A: x86_64; server machine vm")
                .contains("\nservers of different archs: x86_64 (A) against aarch64 (B)\nCAVEAT B: the server's aarch64 JVM");
    }

    @Test
    void repeatedRunShowsSpreadSteadinessWarmUpAndMixedJdks(@TempDir Path dir) throws Exception {
        syntheticRun(dir, variant -> 1.0, 5, true);
        Path report = ReportWriter.write(dir);
        String dom = rendered(Chromium.dumpDom(report));
        assertThat(dom).contains("data-render=\"ok\"").contains("<pre id=\"render-errors\" hidden=\"\"></pre>");
        // Error bars on the throughput, p99 and CPU charts, with the legend saying what they are.
        assertThat(count(dom, "class=\"errbar\"")).isGreaterThanOrEqualTo(3 * 24);
        assertThat(dom).contains("Error bars: the 93.8% confidence interval of the figure's centre")
                .contains("measured 5 times");
        // The not-steady step: a ring on its charts, a mark in the tables, named in the note.
        assertThat(count(dom, "class=\"not-steady\"")).isEqualTo(3);
        assertThat(dom).contains("NOT STEADY (2 of 5)").contains("1 of 24 steps were not steady").contains("spring-tomcat mix c=150");
        // The same step's warm-up reached its limit in one sample.
        assertThat(dom).contains("id=\"warmup-cut-short\"").contains("1 of 24 steps followed a warm-up that reached")
                .contains("cut short in 1");
        // The warm-up used per variant, and the mixed JDKs.
        assertThat(dom).contains("Variants: warm-up, repeats, steadiness").contains("mix 12.0 s").contains("mix 7.0 s");
        assertThat(dom).contains("id=\"mixed-jdks\"").contains("vertx: JDK 21");
        assertThat(dom).contains("[14700.0, 15300.0] ±2.0% 93.8%, n=5");
        // Each fork's mean as a dot over its error bar: five forks a step, on the throughput, p99 and CPU charts.
        assertThat(count(dom, "class=\"forkdot\"")).isGreaterThanOrEqualTo(3 * 24 * 5);
        assertThat(dom).contains("fork 5 mean:").contains("Open dots: each fork's mean");
        Chromium.screenshot(report, Path.of("target", "report-repeated.png"));
    }

    @Test
    void theAnswerIsTheFirstSectionAndItsRankingIsResultsCsvsOrder(@TempDir Path dir) throws Exception {
        syntheticRun(dir, variant -> variant.equals("vertx") ? 1.3 : 1.0, 5, false);
        Path report = ReportWriter.write(dir);
        String dom = rendered(Chromium.dumpDom(report));
        assertThat(dom).contains("data-render=\"ok\"");
        int summary = dom.indexOf("id=\"summary\"");
        assertThat(summary).as("the answer's section").isPositive();
        assertThat(dom.indexOf("<h2")).as("no heading before the answer's").isGreaterThan(summary);
        assertThat(dom.indexOf("id=\"method\"")).isGreaterThan(summary);
        assertThat(dom.indexOf("class=\"chart")).isGreaterThan(dom.indexOf("id=\"method\""));
        // The first ranking (mix c=50) lists the variants as results.csv's throughputs order them.
        List<ResultRow> level = ResultsCsv.read(dir.resolve(ResultsCsv.FILE)).stream()
                .filter(r -> r.scenario().equals("mix") && r.key().concurrency() == 50)
                .sorted((a, b) -> Double.compare(b.throughput().rps(), a.throughput().rps())).toList();
        String firstTable = dom.substring(summary, dom.indexOf("</table>", summary));
        int at = 0;
        for (ResultRow r : level) {
            int next = firstTable.indexOf(">" + r.variant() + "<", at);
            assertThat(next).as("%s after the variants ranked above it", r.variant()).isGreaterThan(at);
            at = next;
        }
        assertThat(dir.resolve(RunSummary.FILE)).isRegularFile();
        Chromium.aboveTheFold(report, Path.of("target", "report-answer-first.png"));
    }

    @Test
    void aStepThatMissedItsPrecisionTargetIsNamedAndTheAddedForksCounted(@TempDir Path dir) throws Exception {
        syntheticRun(dir, variant -> 1.0, 5, false);
        List<StepRecord> steps = new ArrayList<>(StepsCsv.TABLE.read(dir.resolve(StepsCsv.FILE)));
        StepRecord first = steps.get(0);
        steps.set(0, first.with(new StepRecord.Precision(5, 3, StepRecord.Scatter.NONE, StepRecord.Scatter.NONE,
                StepRecord.Scatter.NONE, 5, StepRecord.Precision.MISSED)));
        steps.set(1, steps.get(1).with(new StepRecord.Precision(5, 0, StepRecord.Scatter.NONE, StepRecord.Scatter.NONE,
                StepRecord.Scatter.NONE, 5, StepRecord.Precision.MET)));
        StepsCsv.TABLE.write(dir.resolve(StepsCsv.FILE), steps);
        String dom = rendered(Chromium.dumpDom(ReportWriter.write(dir)));
        assertThat(dom).contains("data-render=\"ok\"").contains("id=\"precision\"")
                .contains("Precision: 1 step(s) got forks after the planned ones")
                .contains("1 step(s) are still wider than their target of ±5%: " + first.key().variant() + " " + first.key().scenario());
    }

    @Test
    void aSingleSampleRunSaysSoAndHasNoErrorBars(@TempDir Path dir) throws Exception {
        syntheticRun(dir, 1.0);
        String dom = rendered(Chromium.dumpDom(ReportWriter.write(dir)));
        assertThat(dom).contains("data-render=\"ok\"").contains("each step was measured once").doesNotContain("class=\"errbar\"")
                .doesNotContain("id=\"mixed-jdks\"").doesNotContain("class=\"not-steady\"");
    }

    @Test
    void comparePageLeadsWithChangesBeyondNoiseInOneColourLanguage(@TempDir Path dir) throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        syntheticRun(a, variant -> 1.0, 5, false);
        Map<String, Double> scale = Map.of("vertx", 0.73, "spring-tomcat", 1.25, "servlet-jetty-async", 1.0);
        syntheticRun(b, scale::get, 5, false);
        Path page = CompareWriter.html(a, b, CompareWriter.load(a, b), dir.resolve("compare.html"));
        String dom = rendered(Chromium.dumpDom(page));
        assertThat(dom).contains("data-render=\"ok\"").contains("Changed beyond noise");
        // The answer first: the page's first heading is what changed, before the method and the status line.
        int answer = dom.indexOf("<h2>Changed beyond noise</h2>");
        assertThat(answer).isPositive().isLessThan(dom.indexOf("Steps are matched by variant"))
                .isLessThan(dom.indexOf("Rendered "));
        assertThat(dom.substring(dom.indexOf("<main"), answer)).doesNotContain("<p");
        // The list of changes comes before the charts and the table, each change in its verdict's colour.
        assertThat(dom.indexOf("<ul class=\"changes\">")).isLessThan(dom.indexOf("<svg")).isPositive();
        assertThat(dom).containsPattern("<li class=\"worse\">vertx mix c=100 rps 0\\.730× \\[0\\.7\\d\\d, 0\\.7\\d\\d\\] slower");
        assertThat(dom).containsPattern("<li class=\"better\">spring-tomcat mix c=100 rps 1\\.250× \\[1\\.\\d+, 1\\.\\d+\\] faster");
        // Same colours in the charts: green, red and grey bars, and the ratio intervals as error bars.
        assertThat(dom).contains("fill=\"#1a7f37\"").contains("fill=\"#cf222e\"").contains("fill=\"#8c959f\"");
        assertThat(count(dom, "class=\"errbar\"")).isEqualTo(3 * 24);
        assertThat(dom).contains("<td class=\"better\">1.250</td>").contains("<td class=\"worse\">0.730</td>");
        assertThat(dom).doesNotContain("class=\"good\"").doesNotContain("class=\"bad\"");
        Chromium.screenshot(page, Path.of("target", "compare-repeated.png"));
    }

    @Test
    void comparePageOfARunWithItselfSaysNothingChanged(@TempDir Path dir) throws Exception {
        syntheticRun(dir, variant -> 1.0, 3, false);
        String dom = rendered(Chromium.dumpDom(CompareWriter.html(dir, dir, CompareWriter.load(dir, dir), dir.resolve("self.html"))));
        assertThat(dom).contains("data-render=\"ok\"").contains("Nothing changed beyond noise (72 figures compared).")
                .doesNotContain("<li class=").doesNotContain("figures have no noise estimate");
    }

    @Test
    void aCapacityRunLeadsWithItsCapacitiesAndConditionsAreSeriesWithTheirCost(@TempDir Path dir) throws Exception {
        syntheticRun(dir, 1.0);
        // vertx's mix steps again under metrics, at 90 % of the throughput and 115 % of the CPU.
        List<ResultRow> rows = new ArrayList<>(ResultsCsv.read(dir.resolve(ResultsCsv.FILE)));
        Conditions metrics = Conditions.parse("metrics");
        for (ResultRow r : List.copyOf(rows)) {
            if (r.variant().equals("vertx") && r.scenario().equals("mix")) {
                ResultRow.Throughput t = r.throughput();
                ResultRow.ServerCost s = r.server();
                rows.add(new ResultRow(r.origin(), r.withConditions(metrics).key(), r.mode(), r.driver(),
                        new ResultRow.Throughput(t.durationS(), t.requests(), 0, t.rps() * 0.9), r.latency(),
                        new ResultRow.ServerCost(s.cpuUserMsPerReq() * 1.15, s.cpuSysMsPerReq() * 1.15, s.rssMb(), s.gcCount(),
                                s.gcMs())));
            }
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);
        CapacityCsv.TABLE.create(dir.resolve(CapacityCsv.FILE));
        double[][] found = {{1, 30_000}, {2, 34_000}, {3, 31_000}};
        for (double[] f : found) {
            CapacityCsv.TABLE.append(dir.resolve(CapacityCsv.FILE), Records.capacity("vertx", Conditions.PLAIN, (int) f[0], f[1]));
        }
        CapacityCsv.TABLE.append(dir.resolve(CapacityCsv.FILE), new CapacityRecord("spring-tomcat", "mix", Conditions.PLAIN,
                "p99<=5ms", 1, 0, 1, "100:missed", "even the lowest rate, 100 req/s, missed p99<=5ms: p99 was 7.00 ms", Double.NaN));

        String dom = rendered(Chromium.dumpDom(ReportWriter.write(dir)));
        assertThat(dom).contains("data-render=\"ok\"").contains("Capacity under p99&lt;=5ms")
                .contains("mix: capacity under p99&lt;=5ms");
        // The headline comes first: before the scenarios' charts.
        assertThat(dom.indexOf("Capacity under")).isLessThan(dom.indexOf("Scenario: mix")).isPositive();
        assertThat(dom).contains("31,000 [30,000, 34,000]").contains("even the lowest rate, 100 req/s, missed p99&lt;=5ms");
        // Under metrics, vertx is a series of its own, and its cost against plain is a table.
        assertThat(dom).contains("vertx metrics").contains("What each condition costs (against the same step under plain)");
        assertThat(dom).contains("<td class=\"\">0.900</td>").contains("<td class=\"\">1.150</td>");
    }

    @Test
    void aRunAtSeveralStoreLatenciesDrawsThroughputAndP99AgainstTheLatency(@TempDir Path dir) throws Exception {
        syntheticRun(dir, 1.0);
        // Every mix step again at 0, 10 and 50 ms of store latency: a sync server bound by its threads, an async one not.
        List<ResultRow> rows = new ArrayList<>();
        for (ResultRow r : ResultsCsv.read(dir.resolve(ResultsCsv.FILE))) {
            if (!r.scenario().equals("mix") || r.concurrency() != 100) {
                continue;
            }
            for (int ms : new int[] {0, 10, 50}) {
                double seconds = ms / 1000.0 + 0.002;
                double rps = r.mode().equals("sync") ? Math.min(r.throughput().rps(), 50 / seconds) : 100 / seconds;
                ResultRow.Throughput t = r.throughput();
                rows.add(new ResultRow(r.origin(), r.withConditions(Conditions.PLAIN.withStoreLatency(StoreLatency.ofMillis(ms))).key(),
                        r.mode(), r.driver(), new ResultRow.Throughput(t.durationS(), t.requests(), 0, rps),
                        new ResultRow.Latencies(ms + 1, ms + 2, ms * 2 + 3, ms * 2 + 4, ms * 3 + 5), r.server()));
            }
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);

        String dom = rendered(Chromium.dumpDom(ReportWriter.write(dir)));
        assertThat(dom).contains("data-render=\"ok\"").contains("Throughput and p99 against the store's latency")
                .contains("mix at c=100: throughput vs store latency").contains("mix at c=100: p99 latency vs store latency")
                .contains("store latency, ms");
        // One line per server, not one per condition.
        assertThat(dom).contains("store50ms: ");
    }

    @Test
    void aRunPricedAfterwardsDrawsACostChartBesideEachThroughputChart(@TempDir Path dir) throws Exception {
        syntheticRun(dir, variant -> 1.0, 5, false);
        String unpriced = rendered(Chromium.dumpDom(ReportWriter.write(dir)));
        assertThat(unpriced).contains("data-render=\"ok\"").doesNotContain("data-chart=\"cost\"");

        // The run folder says the server was pinned to CPU 0 of 2: it pays half the machine.
        RunPricing.Priced priced = RunPricing.apply(dir, PriceList.single(0.0416), "./testbed report --price-per-hour 0.0416");
        assertThat(priced.pricing().share().fraction()).isEqualTo(0.5);
        assertThat(priced.steps()).isEqualTo(24);
        assertThat(priced.describe()).startsWith("priced at 0.0416 per hour × server share 0.5");
        StepRecord vertx = StepsCsv.TABLE.read(dir.resolve(StepsCsv.FILE)).stream()
                .filter(s -> s.key().variant().equals("vertx") && s.key().concurrency() == 100).findFirst().orElseThrow();
        // vertx mix c=100 ran at 15 000 req/s: half of 0.0416 over 54 million requests an hour, per million.
        assertThat(vertx.cost().perMillion()).isCloseTo(0.0208 / 54, within(1e-9));
        assertThat(vertx.cost().ciLow()).isLessThan(vertx.cost().perMillion()).isLessThan(vertx.cost().ciHigh());
        assertThat(Files.readString(dir.resolve("environment.json"))).contains("\"price_per_hour\" : 0.0416")
                .contains("\"priced_after_the_run\" : \"./testbed report --price-per-hour 0.0416 on ");

        Path report = ReportWriter.write(dir);
        String dom = rendered(Chromium.dumpDom(report));
        assertThat(dom).contains("data-render=\"ok\"").contains("<pre id=\"render-errors\" hidden=\"\"></pre>");
        // One cost chart per scenario and model: the mix's staircase, the delay step, the open-model plaintext rates.
        assertThat(count(dom, "data-chart=\"cost\"")).isEqualTo(3);
        assertThat(dom).contains("mix: cost per million requests vs concurrency").contains("delay: cost per million requests at c=400")
                .contains("At 0.0416 per hour × server share 0.5 (the server was pinned to 1 of the machine's 2 CPUs (0))");
        // Each step's cost has an error bar, its throughput's interval turned over: 24 more than before.
        assertThat(count(dom, "class=\"errbar\"") - count(unpriced, "class=\"errbar\"")).isEqualTo(24);
        // The price and share in the environment's facts.
        assertThat(dom).contains("0.0416 per hour (--price-per-hour); added after the run: ./testbed report --price-per-hour 0.0416 on ")
                .contains("0.5: the server was pinned to 1 of the machine's 2 CPUs (0)");
        Chromium.screenshot(report, Path.of("target", "report-priced.png"));
    }

    @Test
    void comparePageOfTwoPricedRunsHasTheCostRatioAsAFigureOfItsOwn(@TempDir Path dir) throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        syntheticRun(a, variant -> 1.0, 5, false);
        syntheticRun(b, variant -> 1.0, 5, false);
        RunPricing.apply(a, PriceList.single(0.0416), "test");
        RunPricing.apply(b, PriceList.single(0.0208), "test");
        Path page = CompareWriter.html(a, b, CompareWriter.load(a, b), dir.resolve("compare.html"));
        String dom = rendered(Chromium.dumpDom(page));
        assertThat(dom).contains("data-render=\"ok\"").contains("cost per million requests ratio B/A (lower is better)");
        assertThat(count(dom, "<svg")).isEqualTo(4);
        // The same throughput at half the price: every step half the cost, beyond noise; nothing else changed.
        assertThat(dom).containsPattern("<li class=\"better\">vertx mix c=100 cost 0\\.500× \\[0\\.\\d+, 0\\.\\d+\\] cheaper");
        assertThat(count(dom, "<li class=\"better\">")).isEqualTo(24);
        assertThat(dom).contains("id=\"price-note\"").contains("A at 0.0416 per hour × server share 0.5");
    }

    /**
     * operations.csv and the interval logs on the page: per scenario a table and a p99 chart of the
     * operations, and from the one step with a log a link to its seconds, which opens the through-time
     * view (here straight from the page's address) with the stall second named and the GC marked.
     */
    @Test
    void perOperationFiguresAndAStepThroughTimeRenderInABrowser(@TempDir Path dir) throws Exception {
        syntheticRun(dir, 1.0);
        List<OperationRecord> operations = new ArrayList<>();
        for (ResultRow r : ResultsCsv.read(dir.resolve(ResultsCsv.FILE))) {
            if (r.scenario().equals("mix")) {
                String[] methods = {"GET", "POST", "PUT", "DELETE"};
                double[] share = {0.8, 0.1, 0.05, 0.05};
                for (int m = 0; m < methods.length; m++) {
                    double p99 = r.latency().p99Ms() * (m == 0 ? 0.9 : 1.5 + m);
                    operations.add(new OperationRecord(r.key(), 1, 1, methods[m], Math.round(r.throughput().requests() * share[m]),
                            m == 3 ? 2 : 0, r.throughput().rps() * share[m],
                            new ResultRow.Latencies(p99 / 4, p99 / 2, p99, p99 * 1.5, p99 * 3)));
                }
            }
        }
        OperationsCsv.TABLE.write(dir.resolve(OperationsCsv.FILE), operations);
        // vertx mix c=100's window: ten seconds, the fifth a stall (few answers, a second's wait), a GC in the seventh.
        IntervalLogFile log = new IntervalLogFile();
        for (int s = 0; s < 10; s++) {
            log.interval(s, s + 1, null, s == 4 ? IntervalLogFile.concat(IntervalLogFile.times(50, 300), IntervalLogFile.times(20, 990_000))
                    : IntervalLogFile.concat(IntervalLogFile.times(1500, 300), IntervalLogFile.times(15, 2_000)));
        }
        Path hlog = log.write(dir.resolve("raw/vertx/mix-c0100.hlog"));
        long start = IntervalLogFile.START_MS;
        GcReadingsCsv.TABLE.write(GcReadingsCsv.beside(hlog), List.of(new GcReading(start, 3, 40), new GcReading(start + 6400, 3, 40),
                new GcReading(start + 6650, 4, 58.5), new GcReading(start + 10_000, 4, 58.5)));

        Path report = ReportWriter.write(dir);
        String dom = rendered(Chromium.dumpDom(report));
        assertThat(dom).contains("data-render=\"ok\"").contains("<pre id=\"render-errors\" hidden=\"\"></pre>");
        assertThat(dom).contains("<h2 id=\"operations\">Per operation</h2>").contains("mix: p99 latency per operation");
        assertThat(count(dom, "class=\"operations-table\"")).isEqualTo(1);
        assertThat(count(dom, "data-chart=\"operations\"")).isEqualTo(1);
        // 3 variants x 4 levels x 4 methods, each a row; DELETE's errors marked.
        assertThat(count(dom.substring(dom.indexOf("class=\"operations-table\"")), "<td class=\"l \">DELETE</td>")).isEqualTo(12);
        assertThat(dom).contains("<td class=\"l \">vertx</td><td class=\"\">c=100</td><td class=\"l \">GET</td>");
        // One step has a log: one link, and the view stays closed until it is followed.
        Matcher link = Pattern.compile("<a href=\"#timeline=(\\d+)\">through time</a>").matcher(dom);
        assertThat(link.find()).isTrue();
        assertThat(link.find()).isFalse();
        assertThat(dom).contains("<div id=\"timeline-view\" class=\"timeline-overlay\" hidden=\"\"></div>");

        String fragment = "#timeline=" + Pattern.compile("#timeline=(\\d+)").matcher(dom).results().findFirst().orElseThrow().group(1);
        String view = rendered(Chromium.dumpDom(report, fragment));
        assertThat(view).contains("data-render=\"ok\"").contains("<pre id=\"render-errors\" hidden=\"\"></pre>");
        assertThat(view).contains("vertx mix c=100: through time").contains("Orange: seconds in which the server's JVM collected garbage");
        assertThat(count(view, "data-kind=\"timeline\" data-seconds=\"10\"")).isEqualTo(1);
        assertThat(view).contains("Lowest throughput: second 4, 70 req/s (median second 1,515 req/s)")
                .contains("Highest p99: second 4, 990.");
        assertThat(view).doesNotContain("<div id=\"timeline-view\" class=\"timeline-overlay\" hidden");
        Chromium.screenshot(report, fragment, Path.of("target", "report-timeline.png"));

        // A log cut short costs its own view only: the page still renders and says why.
        Files.writeString(dir.resolve("raw/vertx/mix-c0100.hlog"), "#[StartTime: 1.0 (seconds since epoch)]\n0.0,1.0,1.0,cut-sho");
        String broken = rendered(Chromium.dumpDom(ReportWriter.write(dir), fragment));
        assertThat(broken).contains("data-render=\"ok\"").contains("Its interval log could not be read: cannot read the interval log ");
    }

    /** The DOM without its scripts and styles: what the page shows, not the text of its renderer. */
    static String rendered(String dom) {
        return dom.replaceAll("(?s)<script[^>]*>.*?</script>", "").replaceAll("(?s)<style>.*?</style>", "");
    }

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
