package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.csv.Saturation;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.report.Chromium;

/**
 * A step whose listen queue overflowed is marked wherever its latency is shown. vertx is asked for a
 * backlog of 1 through its own setting ({@code -Dtestbed.accept.queue=1}, TESTBED_ACCEPT_QUEUE), and
 * the open model at 2000 req/s on a 100 ms delay needs about 200 connections, which the driver opens
 * 32 at a time at the step's start: far more handshakes complete at once than a queue of one holds,
 * so the kernel drops some and their clients retry a second later. The count must show in steps.csv,
 * and the caveat beside the step's p99 on the console, in the report and in compare's flags.
 */
class ListenOverflowIT {

    @Test
    void aStepWhoseListenQueueOverflowedSaysItsTailHoldsConnectRetries() throws Exception {
        Path run = Path.of("target", "listen-overflow-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String output = RunnerJar.run(180, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--scenarios", "delay", "--rate", "2000", "--delay-ms", "100", "--duration", "3s", "--warmup", "2s",
                "--forks", "1", "--iterations", "1", "--jvm-args", "-Xms256m -Xmx256m -Dtestbed.accept.queue=1",
                // One window, counted below: a window measured again on a slow machine is MachineSpeedRunIT's subject.
                "--slow-machine", "0", "--run-id", "listen-overflow", "--out", run.toString());

        StepRecord step = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE)).get(0);
        assertThat(step.server().saturation().listenOverflows()).as("ListenOverflows over the window").isPositive();
        assertThat(step.server().listenOverflowSamples()).isEqualTo(1);
        String stepLine = output.lines().filter(l -> l.contains("vertx") && l.contains("2000/s") && l.contains(" p99 "))
                .findFirst().orElseThrow();
        assertThat(stepLine).containsPattern("p99 +[0-9.]+ ms \\(" + Saturation.CONNECT_RETRIES + "\\)")
                .contains("listen queue overflowed");
        assertThat(Files.readString(run.resolve("raw/vertx/delay-r02000.txt"))).contains(Saturation.CONNECT_RETRIES);

        String report = Chromium.dumpDom(run.resolve("report.html"));
        assertThat(report).contains("data-render=\"ok\"").contains("id=\"connect-retries\"")
                .contains("1 of 1 steps overflowed a listen queue").contains(" (connect retries)</td>");

        // compare's flags column carries the caveat beside every verdict of the step.
        RunnerJar.run(60, "compare", run.toString(), run.toString());
        List<List<String>> compare = Csv.parse(Files.readString(run.resolve("compare.csv")));
        int flags = compare.get(0).indexOf("flags");
        assertThat(compare.subList(1, compare.size())).isNotEmpty().allSatisfy(row -> assertThat(row.get(flags))
                .contains("listen queue overflowed in 2 of 2 samples: " + Saturation.CONNECT_RETRIES));
    }
}
