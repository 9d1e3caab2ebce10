package org.testbed.runner.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runner.problem.Problem;

class ProbesTest {
    private static final Window WINDOW = new Window(Instant.EPOCH, Instant.EPOCH.plusSeconds(3), null);

    private final List<String> told = new ArrayList<>();

    @Test
    void startsTheProbesInOrderAndStopsThemInReverse() throws InterruptedException {
        Probes probes = new Probes("vertx mix-c64", List.of(new Recording("a", null), new Recording("b", null)));

        probes.beforeStep();
        probes.beforeWindow();
        probes.afterWindow();
        probes.afterStep(WINDOW);

        assertThat(told).containsExactly("a beforeStep", "b beforeStep", "a beforeWindow", "b beforeWindow",
                "b afterWindow", "a afterWindow", "b afterStep", "a afterStep");
    }

    @Test
    void joinsTheirResultsInTheOrderTheyWereStopped() throws InterruptedException {
        Probes probes = new Probes("vertx mix-c64", List.of(new Recording("a", null), new Recording("b", null)));
        probes.afterStep(WINDOW);

        ProbeResult result = probes.result();

        assertThat(result.rawText()).isEqualTo("\nb\n\na\n");
        assertThat(result.figures().get(Figure.BYTES_IN)).isEqualTo(1.0);
        assertThat(result.problems()).isEmpty();
    }

    @Test
    void aFailingProbeIsAProblemAndTheStepGoesOnWithoutIt() throws InterruptedException {
        Probes probes = new Probes("vertx mix-c64", List.of(new Recording("a", null), new Recording("b", "beforeWindow"),
                new Recording("c", null)));

        probes.beforeStep();
        probes.beforeWindow();
        probes.afterWindow();
        probes.afterStep(WINDOW);

        assertThat(told).containsExactly("a beforeStep", "b beforeStep", "c beforeStep", "a beforeWindow",
                "b beforeWindow", "c beforeWindow", "c afterWindow", "a afterWindow", "c afterStep", "a afterStep");
        assertThat(probes.problems()).extracting(Problem::text).containsExactly("vertx mix-c64 b: b could not start");
        assertThat(probes.result().rawText()).as("no result from the probe that failed").isEqualTo("\nc\n\na\n");
    }

    @Test
    void theProblemsAProbeReportsFollowThoseOfTheProbesThatFailed() throws InterruptedException {
        Probe unprofilable = new Probe() {
            @Override
            public String observes() {
                return "flame graph";
            }

            @Override
            public ProbeResult result() {
                return ProbeResult.NONE.withProblem(Problem.forEveryStep("vertx flame graphs: emulated"));
            }
        };
        Probes probes = new Probes("vertx mix-c64", List.of(unprofilable, new Recording("b", "afterStep")));

        probes.afterStep(WINDOW);

        assertThat(probes.problems()).extracting(Problem::text)
                .containsExactly("vertx mix-c64 b: b could not stop", "vertx flame graphs: emulated");
    }

    @Test
    void aResultKeepsTheRecordsAndFilesOfEitherSide() {
        ProbeResult flame = ProbeResult.NONE.withFlameGraph("flame/vertx/mix-c64.html", "flame/vertx/mix-c64-heatmap.html");
        ProbeResult bytes = ProbeResult.NONE.withFigures(new Measured(Map.of(Figure.BYTES_OUT, 120.0))).withRawText("x");

        ProbeResult both = bytes.and(flame);

        assertThat(both.flameGraph()).contains("flame/vertx/mix-c64.html");
        assertThat(both.heatMap()).contains("flame/vertx/mix-c64-heatmap.html");
        assertThat(both.figures().get(Figure.BYTES_OUT)).isEqualTo(120.0);
        assertThat(both.rawText()).isEqualTo("x");
        assertThat(both.counters()).isEmpty();
        assertThat(both.recording()).isEmpty();
    }

    /** A probe that notes each hook it is told of, and fails the one named. */
    private final class Recording implements Probe {
        private final String name;
        private final String failsAt;

        Recording(String name, String failsAt) {
            this.name = name;
            this.failsAt = failsAt;
        }

        @Override
        public String observes() {
            return name;
        }

        @Override
        public void beforeStep() throws IOException {
            note("beforeStep");
        }

        @Override
        public void beforeWindow() throws IOException {
            note("beforeWindow");
            if ("beforeWindow".equals(failsAt)) {
                throw new IOException(name + " could not start");
            }
        }

        @Override
        public void afterWindow() throws IOException {
            note("afterWindow");
        }

        @Override
        public void afterStep(Window window) throws IOException {
            note("afterStep");
            if ("afterStep".equals(failsAt)) {
                throw new IOException(name + " could not stop");
            }
        }

        private void note(String hook) {
            told.add(name + " " + hook);
        }

        @Override
        public ProbeResult result() {
            return ProbeResult.NONE.withRawText("\n" + name + "\n").withFigures(new Measured(Map.of(Figure.BYTES_IN, 1.0)));
        }
    }
}
