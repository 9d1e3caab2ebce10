package org.testbed.runfolder.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.compare.CompareWriter;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.ResultRow;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.ResultsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.Spread;

/**
 * A synthetic run with every kind of chart (a staircase, a single-level delay step with the
 * Little's-law bound, an open-model rate series, a saturated step), rendered in headless Chromium.
 */
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
                repeated(rows, steps, samples, repeats, row(v[0], v[1], "mix", c, 0, rps, c / rps * 1000 * 1.8, jdk),
                        step(v[0], "mix", c, 0, c == 200 && v[0].equals("vertx"), 0), unsteady ? 2 : 0);
            }
            double delayRps = v[1].equals("sync") ? 1320 : 2600;
            repeated(rows, steps, samples, repeats, row(v[0], v[1], "delay", 400, 0, delayRps, 160, jdk),
                    step(v[0], "delay", 400, 0, false, 150), 0);
            for (int r : new int[] {1000, 3000, 5000}) {
                repeated(rows, steps, samples, repeats, row(v[0], v[1], "plaintext", 0, r, Math.min(r, scale * 4000), r > 4000 ? 900 : 2, jdk),
                        step(v[0], "plaintext", 0, r, false, 0), 0);
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
        for (int i = 0; i < repeats; i++) {
            rps[i] = median.rps() * WOBBLE[i];
            p99[i] = median.latP99Ms() / WOBBLE[i];
            cpu[i] = median.cpuMsPerReq() * WOBBLE[(i + 1) % repeats];
            samples.add(new SampleRecord(median.variant(), median.scenario(), median.concurrency(), median.targetRps(), i + 1,
                    rps[i], p99[i], cpu[i], 0, Double.NaN, Double.NaN, step.warmupS(), i >= notSteady, "", true));
        }
        steps.add(new StepRecord(step.variant(), step.scenario(), step.concurrency(), step.targetRps(), step.driver(),
                step.driverCpuMs(), step.driverCpuPct(), step.memcachedCpuPct(), step.loadCpusBusyPct(), step.serverCpusBusyPct(),
                step.stealPct(), step.otherLoadPct(), step.loadSidePct(), step.loadSaturated(), step.peakConnections(),
                step.serverCpus(), step.loadCpus(), step.delayMs(), step.threads(), step.raw(), step.flamegraph(), repeats,
                MedianInterval.of(rps), MedianInterval.of(p99), MedianInterval.of(cpu), step.warmupS(), notSteady,
                Double.NaN, Double.NaN, notSteady > 0 ? 1 : 0));
    }

    private static ResultRow row(String variant, String mode, String scenario, int c, double rate, double rps, double p99, String jdk) {
        return new ResultRow("r1", "2025-01-01T00:00:00Z", "h", "x86_64", "Test CPU", 2, jdk, variant, mode, scenario,
                "testbed-nio", c, rate, 10, (long) (rps * 10), 0, rps, p99 / 3, p99 / 2, p99, p99 * 1.5, p99 * 2,
                0.03, 0.012, 250, 4, 20);
    }

    private static StepRecord step(String variant, String scenario, int c, double rate, boolean saturated, int delay) {
        return new StepRecord(variant, scenario, c, rate, "testbed-nio", 900, saturated ? 60 : 30, saturated ? 37 : 10, saturated ? 99 : 60, 100, 0.5, 2, saturated ? 97 : 40, saturated, c, "0", "1",
                delay, 200, "raw/" + variant + "/" + scenario + ".txt", "", 1, Spread.single(0), Spread.single(0),
                Spread.single(0), variant.equals("vertx") ? 12 : 7, 0, Double.NaN, Double.NaN, 0);
    }

    /** The SLA line of a capacity search's chart comes from the bound this code parsed, not from the script's own reading. */
    @Test
    void capacityProbesDrawTheirSlaFromTheBoundParsedHere(@TempDir Path dir) throws Exception {
        List<ResultRow> rows = new ArrayList<>();
        StepsCsv.TABLE.create(dir.resolve(StepsCsv.FILE));
        for (double rate : new double[] {1000, 2000, 4000}) {
            rows.add(row("vertx", "async", "mix", 0, rate, rate, rate / 1000, "17"));
            StepRecord s = step("vertx", "mix", 0, rate, false, 0);
            StepsCsv.TABLE.append(dir.resolve(StepsCsv.FILE), new StepRecord(s.variant(), s.scenario(), s.concurrency(),
                    s.targetRps(), s.driver(), s.driverCpuMs(), s.driverCpuPct(), s.memcachedCpuPct(), s.loadCpusBusyPct(),
                    s.serverCpusBusyPct(), s.stealPct(), s.otherLoadPct(), s.loadSidePct(), s.loadSaturated(),
                    s.peakConnections(), s.serverCpus(), s.loadCpus(), s.delayMs(), s.threads(), s.raw(), s.flamegraph(),
                    s.repeats(), s.rps(), s.p99(), s.cpu(), s.warmupS(), s.notSteadySamples(), s.latP99UncorrectedMs(),
                    s.scheduleLagP99Ms(), s.warmupUnsettledSamples(), s.conditions(), 0, 0, "p99<=5ms"));
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);
        Files.writeString(dir.resolve("environment.json"), "{\"run\":{\"run_id\":\"r1\"}}");

        Path report = ReportWriter.write(dir);

        assertThat(Files.readString(report, StandardCharsets.UTF_8))
                .containsPattern("\"slaPercentile\"\\s*:\\s*99\\.0").containsPattern("\"slaBoundMs\"\\s*:\\s*5\\.0")
                .containsPattern("\"notQuietPct\"\\s*:\\s*15\\.0");
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
        Matcher status = Pattern.compile("Rendered (\\d+) chart\\(s\\) from (\\d+) row\\(s\\)").matcher(dom);
        assertThat(status.find()).isTrue();
        assertThat(Integer.parseInt(status.group(2))).isEqualTo(24);
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
        assertThat(dom).contains("[14700.0, 15300.0] 93.8%, n=5");
        Chromium.screenshot(report, Path.of("target", "report-repeated.png"));
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
                rows.add(new ResultRow(r.runId(), r.startedAt(), r.host(), r.arch(), r.cpuModel(), r.cpus(), r.jdk(), r.variant(),
                        r.mode(), r.scenario(), r.driver(), r.concurrency(), r.targetRps(), r.durationS(), r.requests(), 0,
                        r.rps() * 0.9, r.latP50Ms(), r.latP90Ms(), r.latP99Ms(), r.latP999Ms(), r.latMaxMs(),
                        r.cpuUserMsPerReq() * 1.15, r.cpuSysMsPerReq() * 1.15, r.serverRssMb(), r.gcCount(), r.gcMs(), metrics));
            }
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);
        CapacityCsv.TABLE.create(dir.resolve(CapacityCsv.FILE));
        double[][] found = {{1, 30_000}, {2, 34_000}, {3, 31_000}};
        for (double[] f : found) {
            CapacityCsv.TABLE.append(dir.resolve(CapacityCsv.FILE), new CapacityRecord("vertx", "mix", Conditions.PLAIN,
                    "p99<=5ms", (int) f[0], f[1], 9, "100:met 200:met", "met, then missed"));
        }
        CapacityCsv.TABLE.append(dir.resolve(CapacityCsv.FILE), new CapacityRecord("spring-tomcat", "mix", Conditions.PLAIN,
                "p99<=5ms", 1, 0, 1, "100:missed", "even the lowest rate, 100 req/s, missed p99<=5ms: p99 was 7.00 ms"));

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
