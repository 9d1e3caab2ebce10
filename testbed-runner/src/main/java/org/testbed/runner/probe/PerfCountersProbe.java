package org.testbed.runner.probe;

import java.io.IOException;
import org.testbed.runfolder.counters.CounterReading;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runner.host.EventCounting;
import org.testbed.runner.host.RunningServer;

/**
 * With {@code --counters}, {@code perf stat} attached to the server through the window, wherever it
 * runs: its counts per request in counters.csv, its totals in the raw file, perf's own output in
 * {@code counters/}. What perf cannot count comes back as unavailable with the reason, never as a failure.
 */
final class PerfCountersProbe implements Probe {
    private final RunningServer server;
    private final ProbedStep step;
    private EventCounting perf;
    private CounterReading counted;
    private CounterRecord record;

    PerfCountersProbe(RunningServer server, ProbedStep step) {
        this.server = server;
        this.step = step;
    }

    @Override
    public String observes() {
        return "perf stat";
    }

    @Override
    public void beforeWindow() throws IOException {
        perf = server.countEvents(step.file("counters", ".txt"));
    }

    @Override
    public void afterWindow() throws InterruptedException {
        counted = perf.stop();
    }

    @Override
    public void afterStep(Window window) {
        record = CounterRecord.of(step.key(), step.repeat(), window.result().requests(), counted);
    }

    @Override
    public ProbeResult result() {
        return record == null ? ProbeResult.NONE : ProbeResult.NONE.withCounters(record)
                .withRawText("\nperf stat of the server over the step (totals):\n" + counted.describe());
    }
}
