package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.report.Chromium;

/**
 * The "why" tools end to end: two short runs of one variant with counters and CPU flame graphs,
 * compared. The compare must explain the CPU ratio with counters and write a differential flame
 * graph of the matched step (drawn by async-profiler's converter) that renders in a real browser,
 * with the table of frames whose self time changed most; each run keeps the profiler's recording,
 * its heat map and its user-mode and kernel-mode views.
 */
class WhyIT {
    private static Path runA;
    private static Path runB;
    private static String compared;

    @BeforeAll
    static void twoRunsCompared() throws Exception {
        Path target = Path.of("target").toAbsolutePath();
        runA = target.resolve("why-a");
        runB = target.resolve("why-b");
        for (Path run : List.of(runA, runB)) {
            RunnerJar.deleteRecursively(run);
            RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx", "--scenarios", "mix",
                    "--concurrency", "8", "--duration", "2s", "--warmup", "2s", "--repeat", "1", "--iterations", "1", "--counters",
                    "--flamegraph", "--run-id", run.getFileName().toString(), "--out", run.toString());
        }
        compared = RunnerJar.run(120, "compare", runA.toString(), runB.toString());
    }

    @Test
    void eachRunHasItsCountersItsRecordingItsHeatMapAndItsUserAndKernelViews() throws Exception {
        for (Path run : List.of(runA, runB)) {
            assertThat(CountersCsv.TABLE.read(run.resolve(CountersCsv.FILE))).hasSize(1);
            Path flame = run.resolve("flame/vertx");
            assertThat(flame.resolve("mix-c0008.jfr")).as("async-profiler's recording").isNotEmptyFile();
            assertThat(flame.resolve("mix-c0008.collapsed")).isNotEmptyFile();
            StepRecord step = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE)).get(0);
            assertThat(step.files().flamegraph()).contains("flame/vertx/mix-c0008.html");
            assertThat(step.files().heatmap()).contains("flame/vertx/mix-c0008-heatmap.html");
            List<String> pages = new ArrayList<>(List.of("mix-c0008.html", "mix-c0008-heatmap.html"));
            if (Files.readString(run.resolve("environment.json")).contains("event=cpu")) {
                pages.addAll(List.of("mix-c0008-user.html", "mix-c0008-kernel.html"));
            }
            for (String page : pages) {
                // The converter's pages draw on a canvas: drawn, they are full of colour.
                assertThat(Chromium.colouredPixels(flame.resolve(page), run.resolve(page + ".png")))
                        .as(run.getFileName() + " " + page + " drawn").isGreaterThan(5_000);
            }
        }
    }

    @Test
    void compareExplainsTheCpuRatioAndDiffsTheFlameGraphs() throws Exception {
        assertThat(compared).contains("server counters per request, B/A").contains("vertx mix c=8: CPU ")
                .contains("differential flame graphs:");
        Path diffs = runB.resolve("compare-why-a-flame");
        List<String> pages;
        try (Stream<Path> files = Files.list(diffs)) {
            pages = files.map(p -> p.getFileName().toString()).toList();
        }
        assertThat(pages).containsExactlyInAnyOrder("vertx-mix-c0008.html", "vertx-mix-c0008-frames.html");
        String graph = Files.readString(diffs.resolve("vertx-mix-c0008.html"));
        assertThat(graph).as("a differential graph: frames carry their change").containsPattern("\\nd=-?\\d+\\n");
        assertThat(Chromium.colouredPixels(diffs.resolve("vertx-mix-c0008.html"), runB.resolve("flame-diff.png")))
                .as("the differential graph drawn").isGreaterThan(5_000);
        assertThat(Files.readString(diffs.resolve("vertx-mix-c0008-frames.html")))
                .contains("Frames whose self time changed most").contains("<td class=\"l\">");
        String comparePage = Chromium.dumpDom(runB.resolve("compare-why-a.html"));
        assertThat(comparePage).contains("data-render=\"ok\"").contains("differential flame graph")
                .contains("frames whose self time changed most").contains("Why: server counters per request, B/A");
    }
}
