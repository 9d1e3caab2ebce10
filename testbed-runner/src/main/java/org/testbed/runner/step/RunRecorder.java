package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.testbed.runner.csv.ResultsCsv;
import org.testbed.runner.csv.SamplesCsv;
import org.testbed.runner.csv.StepsCsv;

/**
 * Writes a run's tables as the samples come in, so that the files are complete after every
 * variant should the run be stopped: every sample to {@code samples.csv}, and one row per step to
 * {@code results.csv} and {@code steps.csv}.
 */
final class RunRecorder {
    private final Path resultsCsv;
    private final Path stepsCsv;
    private final Path samplesCsv;
    private int steps;

    private RunRecorder(Path out) {
        this.resultsCsv = out.resolve(ResultsCsv.FILE);
        this.stepsCsv = out.resolve(StepsCsv.FILE);
        this.samplesCsv = out.resolve(SamplesCsv.FILE);
    }

    static RunRecorder create(Path out) throws IOException {
        RunRecorder recorder = new RunRecorder(out);
        ResultsCsv.create(recorder.resultsCsv);
        StepsCsv.create(recorder.stepsCsv);
        SamplesCsv.create(recorder.samplesCsv);
        return recorder;
    }

    void record(List<Sample> samples) throws IOException {
        for (Sample sample : samples) {
            SamplesCsv.append(samplesCsv, sample.sample());
            ResultsCsv.append(resultsCsv, sample.row());
            StepsCsv.append(stepsCsv, sample.step());
            steps++;
        }
    }

    /** Steps with a row in results.csv. */
    int steps() {
        return steps;
    }

    Path resultsCsv() {
        return resultsCsv;
    }
}
