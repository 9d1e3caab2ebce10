package org.testbed.runner.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runner.compare.CompareWriter;
import org.testbed.runner.csv.ResultRow;
import org.testbed.runner.csv.ResultsCsv;
import org.testbed.runner.csv.StepRecord;
import org.testbed.runner.stats.Spread;
import org.testbed.runner.csv.StepsCsv;

/**
 * A synthetic run with every kind of chart (a staircase, a single-level delay step with the
 * Little's-law bound, an open-model rate series, a saturated step), rendered in headless Chromium.
 */
class ReportWriterTest {

    static void syntheticRun(Path dir, double scale) throws Exception {
        List<ResultRow> rows = new ArrayList<>();
        List<StepRecord> steps = new ArrayList<>();
        String[][] variants = {{"spring-tomcat", "sync"}, {"vertx", "async"}, {"servlet-jetty-async", "async"}};
        for (String[] v : variants) {
            for (int c : new int[] {50, 100, 150, 200}) {
                double rps = scale * (v[1].equals("sync") ? 8000 : 15000) * Math.min(1, c / 100.0);
                rows.add(row(v[0], v[1], "mix", c, 0, rps, c / rps * 1000 * 1.8));
                steps.add(step(v[0], "mix", c, 0, c == 200 && v[0].equals("vertx"), 0));
            }
            double delayRps = v[1].equals("sync") ? 1320 : 2600;
            rows.add(row(v[0], v[1], "delay", 400, 0, delayRps, 160));
            steps.add(step(v[0], "delay", 400, 0, false, 150));
            for (int r : new int[] {1000, 3000, 5000}) {
                rows.add(row(v[0], v[1], "plaintext", 0, r, Math.min(r, scale * 4000), r > 4000 ? 900 : 2));
                steps.add(step(v[0], "plaintext", 0, r, false, 0));
            }
        }
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), rows);
        StepsCsv.create(dir.resolve(StepsCsv.FILE));
        for (StepRecord s : steps) {
            StepsCsv.append(dir.resolve(StepsCsv.FILE), s);
        }
        Files.writeString(dir.resolve("environment.json"), "{\"run\":{\"run_id\":\"r1\",\"delay_ms\":150,\"threads\":200,"
                + "\"saturation_pct\":90,\"profile\":\"default\",\"problems\":[]},\"machine\":{\"host\":\"h\",\"arch\":\"x86_64\","
                + "\"cpus\":2,\"cpu_model\":\"Test CPU </script> & co\",\"lscpu\":\"Architecture: x86_64\"},"
                + "\"pinning\":{\"description\":\"server on CPU 0\"},\"jdks\":[{\"vendor\":\"Debian\",\"version\":\"17\",\"flags\":\"-XX:+UseSerialGC\"}]}");
    }

    private static ResultRow row(String variant, String mode, String scenario, int c, double rate, double rps, double p99) {
        return new ResultRow("r1", "2025-01-01T00:00:00Z", "h", "x86_64", "Test CPU", 2, "17", variant, mode, scenario,
                "testbed-nio", c, rate, 10, (long) (rps * 10), 0, rps, p99 / 3, p99 / 2, p99, p99 * 1.5, p99 * 2,
                0.03, 0.012, 250, 4, 20);
    }

    private static StepRecord step(String variant, String scenario, int c, double rate, boolean saturated, int delay) {
        return new StepRecord(variant, scenario, c, rate, "testbed-nio", 900, saturated ? 60 : 30, saturated ? 37 : 10, saturated ? 99 : 60, 100, 0.5, 2, saturated ? 97 : 40, saturated, c, "0", "1",
                delay, 200, "raw/" + variant + "/" + scenario + ".txt", "", 1, Spread.single(0), Spread.single(0),
                Spread.single(0), 5, 0, Double.NaN, Double.NaN);
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

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
