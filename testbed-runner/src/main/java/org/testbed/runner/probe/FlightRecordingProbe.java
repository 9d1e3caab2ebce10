package org.testbed.runner.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runner.host.FlightRecording;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.jfr.RecordingLine;
import org.testbed.runner.jfr.WindowSummary;

/**
 * With {@code --jfr}, a JDK Flight Recorder recording of the server over the step, kept beside the
 * raw file ({@code .jfr}) and summarised over the window ({@link WindowSummary}) into jfr.csv and the
 * raw file. It spans the whole step, the server's readings included: what starting and stopping a
 * recording cost the server (a JVM's first {@code JFR.start} loads the recorder) stays out of the
 * step's CPU.
 */
final class FlightRecordingProbe implements Probe {
    private final RunningServer server;
    private final ProbedStep step;
    private final Path file;
    private FlightRecording recording;
    private JfrRecord record;
    private WindowSummary summary;

    FlightRecordingProbe(RunningServer server, ProbedStep step) {
        this.server = server;
        this.step = step;
        this.file = step.file("raw", ".jfr");
    }

    @Override
    public String observes() {
        return "flight recording";
    }

    @Override
    public void beforeStep() throws IOException {
        recording = server.record("testbed-" + step.slug(), WindowSummary.SETTINGS);
    }

    /** Stops the recording into the file and summarises the window in it, placed on the server's clock. */
    @Override
    public void afterStep(Window window) throws IOException {
        try {
            Duration ahead = recording.stop(file);
            summary = WindowSummary.of(file, window.start().plus(ahead), window.end().plus(ahead));
        } catch (RuntimeException e) {
            // A recording that cannot be fetched or read is lost, not the step.
            throw new IOException(e.getMessage(), e);
        }
        record = summary.record(step.key(), step.repeat(), step.iteration(), window.result().requests(), step.relative(file));
    }

    @Override
    public ProbeResult result() {
        return record == null ? ProbeResult.NONE
                : ProbeResult.NONE.withRecording(record).withRawText("\n" + RecordingLine.describe(record, summary) + "\n");
    }
}
