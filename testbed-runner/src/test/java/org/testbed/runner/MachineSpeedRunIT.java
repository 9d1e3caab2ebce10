package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.figure.Figure;

/**
 * A short real run, as a user makes it: the machine speed reference beside every window, its speed
 * on the server's and the load's CPUs in every sample and step, the reference described when the
 * run starts and its cost said once it has stopped.
 */
class MachineSpeedRunIT {

    @Test
    void everySampleHasTheSpeedOfBothSidesAndTheReferenceStopsWithTheRun() throws Exception {
        Path run = Path.of("target", "machine-speed-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String output = RunnerJar.run(240, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "jetty-handler",
                "--scenarios", "mix", "--concurrency", "8", "--duration", "2s", "--warmup", "0s", "--iterations", "2",
                "--run-id", "speed", "--out", run.toString());

        List<SampleRecord> samples = SamplesCsv.TABLE.read(run.resolve(SamplesCsv.FILE));
        assertThat(samples).hasSizeGreaterThanOrEqualTo(2);
        for (SampleRecord s : samples) {
            for (Figure f : List.of(Figure.SERVER_SPEED, Figure.LOAD_SPEED)) {
                assertThat(s.measured().get(f)).as("%s of sample %d/%d", f.key(), s.repeat(), s.iteration()).isGreaterThan(0)
                        .isLessThanOrEqualTo(1.5);
            }
            assertThat(s.leftOut()).as("left out only when the machine ran slow in it")
                    .isEqualTo(s.measured().get(Figure.SERVER_SPEED) < 0.9 || s.measured().get(Figure.LOAD_SPEED) < 0.9);
        }
        List<StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE));
        assertThat(steps).hasSize(1);
        StepRecord step = steps.get(0);
        assertThat(step.figure(Figure.SERVER_SPEED)).isGreaterThan(0).isLessThanOrEqualTo(1.5);
        assertThat(step.figure(Figure.LOAD_SPEED)).isGreaterThan(0).isLessThanOrEqualTo(1.5);
        long leftOut = samples.stream().filter(SampleRecord::leftOut).count();
        assertThat(step.steadiness().slowMachineSamples()).isEqualTo((int) leftOut);
        long windows = samples.stream().map(s -> s.repeat() + "/" + s.iteration()).distinct().count();
        assertThat(step.steadiness().slowMachineRetakes()).as("a retake shares its fork and iteration")
                .isEqualTo(samples.size() - (int) windows);
        assertThat(Files.readString(run.resolve(StepsCsv.FILE)).lines().findFirst().orElseThrow())
                .contains("slow_machine_samples", "slow_machine_retakes", "server_speed", "load_speed");

        String raw = Files.readString(run.resolve(samples.get(0).raw()));
        assertThat(raw).contains("machine speed (a 10 ms loop").contains("of a CPU)");
        assertThat(output).contains("machine speed: a 10 ms loop timed on CPU")
                .containsPattern("machine speed reference: \\d+ probes on \\d+ CPU\\(s\\)");
        assertThat(Files.readString(run.resolve("report.html"))).contains("server_speed");
    }
}
