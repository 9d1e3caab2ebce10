package org.testbed.runner.probe;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.problem.Problem;

/**
 * The probes of one step, told of its moments together: started in order before the step and the
 * window, stopped in the reverse order after them, so that each is nested in the ones before it;
 * their results joined into one, in the order they were stopped. The step knows them only as
 * probes. A probe whose hook fails is a problem of the step, and is left out from then on (no later
 * hook, no result): the step is measured without it.
 */
public final class Probes {
    /** In the order they are started. */
    private final List<Probe> live;
    private final String step;
    private final List<Problem> failures = new ArrayList<>();

    /** @param step the step as its problems name it ({@code vertx mix-c64}) */
    public Probes(String step, List<Probe> probes) {
        this.step = step;
        this.live = new ArrayList<>(probes);
    }

    /**
     * What a run asked each step to observe, decided once for the run (or one of its conditions).
     *
     * @param recording a flight recording of the server over each step ({@code --jfr})
     * @param flamegraphs the profiler, with {@code --flamegraph}
     * @param counters the server's perf counters ({@code --counters})
     * @param metrics the server's metrics scraped through the window (the {@code metrics} condition)
     */
    public record Choice(boolean recording, Optional<Flamegraphs> flamegraphs, boolean counters, boolean metrics) {
    }

    /**
     * The probes of {@code step} of {@code server}, in the order they start: the flight recording
     * around the step (its start and stop stay out of the step's CPU), then the flame graph, perf's
     * counters, the metrics scrape and the GC timeline around the window, the bytes on the wire and the
     * requests cut at the window's end.
     */
    public static Probes forStep(Choice choice, RunningServer server, ProbedStep step) {
        return forStep(choice, server, step, List.of());
    }

    /**
     * As {@link #forStep(Choice, RunningServer, ProbedStep)}, with {@code last} started after the others,
     * nearest the window and stopped first after it (a fault of the store: it is undone at once, and the
     * others observe the window it is part of).
     */
    public static Probes forStep(Choice choice, RunningServer server, ProbedStep step, List<Probe> last) {
        List<Probe> probes = new ArrayList<>();
        if (choice.recording()) {
            probes.add(new FlightRecordingProbe(server, step));
        }
        choice.flamegraphs().ifPresent(flamegraphs -> probes.add(new FlameGraphProbe(flamegraphs, server, step)));
        if (choice.counters()) {
            probes.add(new PerfCountersProbe(server, step));
        }
        if (choice.metrics()) {
            probes.add(new MetricsScrapeProbe(server));
        }
        probes.add(new GcTimelineProbe(server, step));
        probes.add(new WireBytes());
        probes.add(new UnfinishedRequests());
        probes.addAll(last);
        return new Probes(step.name(), probes);
    }

    public void beforeStep() throws InterruptedException {
        tell(live, Probe::beforeStep);
    }

    public void beforeWindow() throws InterruptedException {
        tell(live, Probe::beforeWindow);
    }

    public void afterWindow() throws InterruptedException {
        tell(reversed(), Probe::afterWindow);
    }

    public void afterStep(Window window) throws InterruptedException {
        tell(reversed(), probe -> probe.afterStep(window));
    }

    /** Every probe's result, in the order they were stopped. */
    public ProbeResult result() {
        return reversed().stream().map(Probe::result).reduce(ProbeResult.NONE, ProbeResult::and);
    }

    /** The problems so far: the probes that failed, then those the others reported; whether or not the step was measured. */
    public List<Problem> problems() {
        List<Problem> all = new ArrayList<>(failures);
        all.addAll(result().problems());
        return all;
    }

    private List<Probe> reversed() {
        List<Probe> order = new ArrayList<>(live);
        Collections.reverse(order);
        return order;
    }

    private void tell(List<Probe> order, Hook hook) throws InterruptedException {
        for (Probe probe : List.copyOf(order)) {
            try {
                hook.call(probe);
            } catch (IOException e) {
                live.remove(probe);
                failures.add(Problem.of(step + " " + probe.observes() + ": " + e.getMessage()));
            }
        }
    }

    @FunctionalInterface
    private interface Hook {
        void call(Probe probe) throws IOException, InterruptedException;
    }
}
