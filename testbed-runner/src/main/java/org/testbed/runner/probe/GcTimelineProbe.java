package org.testbed.runner.probe;

import java.io.IOException;
import java.util.List;
import org.testbed.runfolder.timeline.GcReading;
import org.testbed.runfolder.timeline.GcReadingsCsv;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.proc.GcSampler;

/**
 * For a server whose hsperfdata file this machine can read, its GC counters read a few times a second
 * through the window ({@link GcSampler}) and kept beside the step's interval log ({@code .gc.csv}),
 * so that the report can mark the seconds in which it collected. A server on another machine has
 * none: a read there would be an ssh round trip.
 */
final class GcTimelineProbe implements Probe {
    private final RunningServer server;
    private final ProbedStep step;
    private GcSampler sampler;
    private List<GcReading> readings = List.of();

    GcTimelineProbe(RunningServer server, ProbedStep step) {
        this.server = server;
        this.step = step;
    }

    @Override
    public String observes() {
        return "GC timeline";
    }

    @Override
    public void beforeWindow() {
        sampler = server.localPerfData().map(file -> GcSampler.start(file, GcReadingsCsv.PERIOD_MILLIS)).orElse(null);
    }

    @Override
    public void afterWindow() {
        if (sampler != null) {
            readings = sampler.stop();
        }
    }

    /** Beside the interval log, which only a driver that keeps one second by second has. */
    @Override
    public void afterStep(Window window) throws IOException {
        if (!window.result().intervals().isEmpty() && readings.size() > 1) {
            GcReadingsCsv.TABLE.write(GcReadingsCsv.beside(step.file("raw", ".hlog")), readings);
        }
    }

    @Override
    public ProbeResult result() {
        return ProbeResult.NONE;
    }
}
