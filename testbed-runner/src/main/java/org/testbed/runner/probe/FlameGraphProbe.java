package org.testbed.runner.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.problem.Problem;

/**
 * With {@code --flamegraph}, the profiler in the server through the window, its samples drawn as a
 * flame graph and a heat map ({@link Flamegraphs}) that steps.csv links to. A server that cannot be
 * profiled at all (its JVM emulated, no jcmd there) is still measured, without a flame graph, and
 * says why once for all its steps.
 */
final class FlameGraphProbe implements Probe {
    private final Flamegraphs flamegraphs;
    private final RunningServer server;
    private final ProbedStep step;
    private final Path file;
    private Flamegraphs.Profiled profiled;
    private Problem unprofilable;
    private boolean drawn;

    FlameGraphProbe(Flamegraphs flamegraphs, RunningServer server, ProbedStep step) {
        this.flamegraphs = flamegraphs;
        this.server = server;
        this.step = step;
        this.file = step.file("flame", ".html");
    }

    @Override
    public String observes() {
        return "flame graph";
    }

    @Override
    public void beforeWindow() throws IOException {
        Flamegraphs.Profiled jvm = server.profiled(flamegraphs);
        Optional<String> never = jvm.unprofilable();
        if (never.isPresent()) {
            unprofilable = Problem.forEveryStep(step.variant() + " flame graphs: " + never.get());
            return;
        }
        Files.createDirectories(file.getParent());
        flamegraphs.start(jvm, file);
        profiled = jvm;
    }

    @Override
    public void afterWindow() throws IOException {
        if (profiled != null) {
            flamegraphs.stop(profiled, file);
            drawn = true;
        }
    }

    @Override
    public ProbeResult result() {
        ProbeResult result = drawn ? ProbeResult.NONE.withFlameGraph(step.relative(file), step.relative(Flamegraphs.heatmap(file)))
                : ProbeResult.NONE;
        return unprofilable == null ? result : result.withProblem(unprofilable);
    }
}
