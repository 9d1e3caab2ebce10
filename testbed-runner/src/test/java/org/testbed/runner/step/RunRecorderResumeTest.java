package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.Spread;

/** A run folder written window by window, cut, and taken up again as {@code run --resume} does. */
class RunRecorderResumeTest {
    @TempDir
    Path out;

    @BeforeEach
    void folder() throws IOException {
        Files.createDirectories(out.resolve("raw"));
    }

    @Test
    void theFinishedSessionsAreKeptAndTheCutOneDroppedFromEveryTable() throws Exception {
        RunRecorder recorder = RunRecorder.create(out, false, false);
        record(recorder, "vertx", 1, 1000, 1100);
        recorder.sessionFinished(new SessionKey(1, "vertx", "plain"));
        record(recorder, "jetty-handler", 1, 2000, 2400);
        recorder.sessionFinished(new SessionKey(1, "jetty-handler", "plain"));
        String resultsBeforeTheCut = Files.readString(out.resolve(ResultsCsv.FILE));
        String stepsBeforeTheCut = Files.readString(out.resolve("steps.csv"));
        record(recorder, "vertx", 2, 900); // fork 2, cut after its first window

        RunRecorder.Resumed resumed = RunRecorder.resume(out, false, false);

        assertThat(resumed.finished()).containsExactly(new SessionKey(1, "vertx", "plain"),
                new SessionKey(1, "jetty-handler", "plain"));
        assertThat(resumed.kept()).isEqualTo(4);
        assertThat(resumed.dropped()).isEqualTo(1);
        assertThat(SamplesCsv.TABLE.read(out.resolve(SamplesCsv.FILE))).extracting(SampleRecord::repeat).containsOnly(1)
                .hasSize(4);
        assertThat(OperationsCsv.TABLE.read(out.resolve(OperationsCsv.FILE))).extracting(OperationRecord::repeat)
                .containsOnly(1).hasSize(4);
        assertThat(ResultsCsv.TABLE.read(out.resolve(RunRecorder.WINDOW_RESULTS))).hasSize(4);
        assertThat(Files.readString(out.resolve(ResultsCsv.FILE))).as("the steps folded again from the kept windows")
                .isEqualTo(resultsBeforeTheCut);
        assertThat(Files.readString(out.resolve("steps.csv"))).isEqualTo(stepsBeforeTheCut);
        assertThat(resumed.recorder().measured(new SessionKey(2, "vertx", "plain"))).isFalse();

        // The resumed run goes on recording into the same tables.
        record(resumed.recorder(), "vertx", 2, 1200, 1300);
        assertThat(SamplesCsv.TABLE.read(out.resolve(SamplesCsv.FILE))).hasSize(6);
        assertThat(resumed.recorder().aggregates().get(0).step().repeats().count()).isEqualTo(4);
    }

    @Test
    void aTornLastLineOfAnyTableIsLeftOut() throws Exception {
        RunRecorder recorder = RunRecorder.create(out, false, false);
        record(recorder, "vertx", 1, 1000);
        recorder.sessionFinished(new SessionKey(1, "vertx", "plain"));
        record(recorder, "vertx", 2, 1000);
        // kill -9 mid-write: half a line in the window table and in the sessions' list
        Files.writeString(out.resolve(RunRecorder.WINDOW_STEPS), "vertx,mix,8", StandardOpenOption.APPEND);
        Files.writeString(out.resolve(RunRecorder.SESSIONS), "2,ver", StandardOpenOption.APPEND);

        RunRecorder.Resumed resumed = RunRecorder.resume(out, false, false);

        assertThat(resumed.finished()).containsExactly(new SessionKey(1, "vertx", "plain"));
        assertThat(resumed.kept()).isEqualTo(1);
        assertThat(Files.readString(out.resolve(RunRecorder.SESSIONS), StandardCharsets.UTF_8)).endsWith("1,vertx,plain\n");
    }

    @Test
    void aFinishedWindowWithoutItsOwnRowIsRefusedByName() throws Exception {
        RunRecorder recorder = RunRecorder.create(out, false, false);
        record(recorder, "vertx", 1, 1000);
        recorder.sessionFinished(new SessionKey(1, "vertx", "plain"));
        ResultsCsv.TABLE.write(out.resolve(RunRecorder.WINDOW_RESULTS), List.of());

        assertThatThrownBy(() -> RunRecorder.resume(out, false, false)).isInstanceOf(IOException.class)
                .hasMessageContaining("window 1 of samples.csv").hasMessageContaining(RunRecorder.WINDOW_RESULTS);
    }

    @Test
    void theForksAddedBeforeAreCountedSoTheNextTakesANewNumber() throws Exception {
        RunRecorder recorder = RunRecorder.create(out, false, false);
        record(recorder, "vertx", 1, 1000);
        record(recorder, "vertx", 3, 1000);
        record(recorder, "jetty-handler", 1, 1000);
        assertThat(recorder.lastForks()).containsEntry("vertx plain", 3).containsEntry("jetty-handler plain", 1);
    }

    /** One window per rps of fork {@code fork} of {@code variant}'s mix at 8 users. */
    private static void record(RunRecorder recorder, String variant, int fork, double... rps) throws IOException {
        for (int i = 0; i < rps.length; i++) {
            recorder.record(sample(variant, fork, i + 1, rps[i]));
        }
    }

    private static Sample sample(String variant, int fork, int iteration, double rps) {
        ResultRow.StepKey key = new ResultRow.StepKey(variant, "mix", 8, 0, Conditions.PLAIN);
        ResultRow row = new ResultRow(new ResultRow.Origin("r1", "2026-01-01T00:00:00Z", "h", "x86_64", "cpu", 2, "17"), key,
                "async", "testbed-nio", new ResultRow.Throughput(3, (long) rps * 3, 0, rps),
                new ResultRow.Latencies(1, 2, 4, 8, 16), new ResultRow.ServerCost(0.05, 0.02, 200, 1, 2));
        StepRecord step = new StepRecord(key, new StepRecord.DriverSide("testbed-nio", 100, 40, 8, 0, 0),
                new StepRecord.ServerSide(90, 212), new StepRecord.LoadSide(10, 60, 0, 0, 50, false),
                new StepRecord.Setup("0", "1", 0, 200, ""),
                new StepRecord.Files("raw/" + variant + "/mix-c0008-r" + fork + ".txt", Optional.empty(), Optional.empty()),
                new StepRecord.Repeats(1, Spread.single(rps), Spread.single(4), Spread.single(0.07)),
                new StepRecord.Steadiness(8, 0, 0), StepRecord.OpenModel.CLOSED, StepRecord.Cost.NONE);
        SampleRecord s = new SampleRecord(key, fork, iteration, new SampleRecord.Figures(rps, 4, 0.07, 0),
                StepRecord.OpenModel.CLOSED, new SampleRecord.Caveats(8, true, true, 0, false), step.files().raw(), 0, 0);
        OperationRecord get = new OperationRecord(key, fork, iteration, "GET", (long) rps * 3, 0, rps,
                new ResultRow.Latencies(1, 2, 4, 8, 16));
        return new Sample(row, step, s, List.of(get));
    }
}
