package org.testbed.runner.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.driver.Latency;
import org.testbed.driver.LoadResult;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.host.EventCounting;
import org.testbed.runner.host.FlightRecording;
import org.testbed.runner.host.MachineLabel;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.host.ServerReading;
import org.testbed.runner.problem.Problem;
import org.testbed.runner.problem.Problems;
import org.testbed.runner.proc.CompilerThreads;

/** The probes of a step against a server that fails them in the ways a real one can. */
class StepProbesTest {
    /** A window as wrk measures it: totals, no interval log, no bytes counted. */
    private static final Window WINDOW = new Window(Instant.EPOCH, Instant.EPOCH.plusSeconds(3),
            new LoadResult("wrk", new LoadResult.Throughput(300, 0, 3, new long[0]), LoadResult.ClientLatency.closedModel(Latency.NONE),
                    10, 4, LoadResult.TransportCounts.NONE, ""));

    @TempDir
    Path out;

    private final List<String> asked = new ArrayList<>();

    @Test
    void theFlightRecordingStartsBeforeTheStepAndALostOneIsAProblemNotTheStepsEnd() throws InterruptedException {
        FakeServer server = new FakeServer();
        server.recording = local -> {
            throw new IllegalStateException("the server's machine stopped answering");
        };
        Probes probes = Probes.forStep(new Probes.Choice(true, Optional.empty(), false, false), server, step("mix-c64"));

        probes.beforeStep();
        probes.beforeWindow();
        probes.afterWindow();
        probes.afterStep(WINDOW);

        assertThat(asked).containsExactly("record testbed-mix-c64");
        assertThat(probes.problems()).extracting(Problem::text)
                .containsExactly("vertx mix-c64 flight recording: the server's machine stopped answering");
        assertThat(probes.result().recording()).isEmpty();
        assertThat(probes.result().rawText()).isEmpty();
    }

    @Test
    void aServerThatCannotBeProfiledIsMeasuredWithoutAFlameGraphAndSaysSoOnce() throws Exception {
        FakeServer server = new FakeServer();
        server.unprofilable = Optional.of("its JVM is emulated");
        Flamegraphs flamegraphs = Flamegraphs.prepare(out.resolve("lib"), "cpu");
        Problems problems = new Problems();

        for (String slug : List.of("mix-c64", "delay-c400")) {
            Probes probes = Probes.forStep(new Probes.Choice(false, Optional.of(flamegraphs), false, false), server, step(slug));
            probes.beforeWindow();
            probes.afterWindow();
            assertThat(probes.result().flameGraph()).isEmpty();
            problems.reportAll(probes.problems());
        }

        assertThat(problems.texts()).containsExactly("vertx flame graphs: its JVM is emulated");
        assertThat(asked).as("the profiler never loaded").isEmpty();
    }

    @Test
    void aProfilerThatWillNotStartIsAProblemOfTheStep() throws Exception {
        FakeServer server = new FakeServer();
        server.profilerRefuses = true;
        Flamegraphs flamegraphs = Flamegraphs.prepare(out.resolve("lib"), "wall");
        Probes probes = Probes.forStep(new Probes.Choice(false, Optional.of(flamegraphs), false, false), server, step("mix-c64"));

        probes.beforeWindow();
        probes.afterWindow();

        assertThat(asked).as("started once, never stopped").hasSize(1).allMatch(a -> a.startsWith("load start,event=wall"));
        assertThat(probes.problems()).extracting(Problem::text).containsExactly("vertx mix-c64 flame graph: attach refused");
        assertThat(probes.result().flameGraph()).isEmpty();
    }

    @Test
    void aServerWithoutLocalPerfDataHasNoGcTimeline() throws InterruptedException {
        Probes probes = Probes.forStep(new Probes.Choice(false, Optional.empty(), false, false), new FakeServer(),
                step("mix-c64"));

        probes.beforeWindow();
        probes.afterWindow();

        assertThat(probes.problems()).isEmpty();
        assertThat(probes.result().rawText()).isEmpty();
        assertThat(Files.exists(out.resolve("raw"))).isFalse();
    }

    private ProbedStep step(String slug) {
        return new ProbedStep("vertx", slug, out, new ResultRow.StepKey("vertx", "mix", 64, 0, Conditions.PLAIN), 1, 1);
    }

    /** A server that answers only what the probes ask of it, and notes what that was. */
    private final class FakeServer implements RunningServer {
        private FlightRecording recording = local -> java.time.Duration.ZERO;
        private Optional<String> unprofilable = Optional.empty();
        private boolean profilerRefuses;

        @Override
        public FlightRecording record(String name, List<String> settings) {
            asked.add("record " + name);
            return recording;
        }

        @Override
        public Flamegraphs.Profiled profiled(Flamegraphs flamegraphs) {
            return new Flamegraphs.Profiled() {
                @Override
                public void load(String arguments) throws IOException {
                    asked.add("load " + arguments);
                    if (profilerRefuses) {
                        throw new IOException("attach refused");
                    }
                }

                @Override
                public String writePath(Path local) {
                    return local.toString();
                }

                @Override
                public void fetch(Path local) {
                }

                @Override
                public Optional<String> unprofilable() {
                    return unprofilable;
                }
            };
        }

        @Override
        public long pid() {
            return 4242;
        }

        @Override
        public URI baseUri() {
            return URI.create("http://127.0.0.1:1");
        }

        @Override
        public boolean isAlive() {
            return true;
        }

        @Override
        public ServerReading read() {
            throw new UnsupportedOperationException("not a probe's");
        }

        @Override
        public CompilerThreads compilers() {
            return null;
        }

        @Override
        public JdkInfo jdk() {
            return null;
        }

        @Override
        public EventCounting countEvents(Path output) {
            throw new UnsupportedOperationException("not asked");
        }

        @Override
        public MachineLabel machine() {
            return MachineLabel.local();
        }

        @Override
        public void close() {
        }
    }
}
