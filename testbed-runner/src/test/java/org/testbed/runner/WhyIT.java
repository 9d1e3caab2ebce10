package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.report.Chromium;

/**
 * The "why" tools end to end: two short runs of one variant with counters and CPU flame graphs,
 * compared. The compare must explain the CPU ratio with counters and write a differential flame
 * graph of the matched step that renders in a real browser; each run keeps its user-mode and
 * kernel-mode views.
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
    void eachRunHasItsCountersAndItsUserAndKernelViews() throws Exception {
        for (Path run : List.of(runA, runB)) {
            assertThat(CountersCsv.TABLE.read(run.resolve(CountersCsv.FILE))).hasSize(1);
            Path flame = run.resolve("flame/vertx");
            assertThat(flame.resolve("mix-c0008.html")).isNotEmptyFile();
            assertThat(flame.resolve("mix-c0008.collapsed")).isNotEmptyFile();
            if (Files.readString(run.resolve("environment.json")).contains("event=cpu")) {
                for (String view : List.of("mix-c0008-user.html", "mix-c0008-kernel.html")) {
                    String dom = Chromium.dumpDom(flame.resolve(view));
                    assertThat(dom).as(view).contains("data-render=\"ok\"").contains("<rect");
                }
            }
        }
    }

    @Test
    void compareExplainsTheCpuRatioAndDiffsTheFlameGraphs() throws Exception {
        assertThat(compared).contains("server counters per request, B/A").contains("vertx mix c=8: CPU ")
                .contains("differential flame graphs:");
        Path diffs = runB.resolve("compare-why-a-flame");
        List<Path> pages;
        try (Stream<Path> files = Files.list(diffs)) {
            pages = files.toList();
        }
        assertThat(pages).extracting(p -> p.getFileName().toString()).containsExactly("vertx-mix-c0008.html");
        String dom = Chromium.dumpDom(pages.get(0));
        assertThat(dom).contains("data-render=\"ok\"").contains("<rect").contains("Frames whose self time changed most");
        String comparePage = Chromium.dumpDom(runB.resolve("compare-why-a.html"));
        assertThat(comparePage).contains("data-render=\"ok\"").contains("differential flame graph")
                .contains("Why: server counters per request, B/A");
        Chromium.screenshot(pages.get(0), runB.resolve("flame-diff.png"));
        assertThat(runB.resolve("flame-diff.png")).isNotEmptyFile();
    }
}
