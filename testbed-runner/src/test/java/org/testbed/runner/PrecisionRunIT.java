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

/**
 * {@code run --precision}: after its planned forks, a run adds a fork to a step wider than the
 * target, runs it for that scenario alone, says why on the console and in {@code precision.txt},
 * and records the forks, the added ones, the variance components and the verdict in steps.csv. A
 * target of ±0.01 % cannot be met, so the step gets forks until {@code --max-forks}: exactly one
 * more here, which bounds the test.
 */
class PrecisionRunIT {

    @Test
    void aStepWiderThanTheTargetGetsAForkAndTheRunSaysWhy() throws Exception {
        Path run = Path.of("target", "precision-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String output = RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--scenarios", "mix,plaintext", "--concurrency", "8", "--duration", "1s", "--warmup", "2s", "--forks", "2",
                "--iterations", "2", "--precision", "mix:0.01%", "--max-forks", "3", "--budget", "10m",
                "--run-id", "precision", "--out", run.toString());

        assertThat(output).contains("then forks added where an interval is wider than the target (mix ±0.01 % (rps, cpu))");
        assertThat(output).containsPattern("precision: \\+ fork 3 of vertx mix: c=8 (rps|cpu) at ±[0-9.]+ %( \\(±[0-9.]+ % with the fork as the unit\\))? against ±0.01 %"
                + " after 2 fork\\(s\\) \\(JVMs scatter [0-9.n/a %]+, iterations [0-9.n/a %]+\\); [1-4] iteration\\(s\\)");
        assertThat(output).contains("precision: MISSED vertx mix c=8");
        String log = Files.readString(run.resolve("precision.txt"));
        assertThat(log).contains("+ fork 3 of vertx mix").contains("each has its 3 forks")
                .contains("would need more than --max-forks 3: vertx mix c=8 (over 50)").doesNotContain("plaintext");

        List<StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE));
        StepRecord mix = steps.stream().filter(s -> s.key().scenario().equals("mix")).findFirst().orElseThrow();
        assertThat(mix.precision().forks()).isEqualTo(3);
        assertThat(mix.precision().addedForks()).isEqualTo(1);
        assertThat(mix.precision().status()).isEqualTo(StepRecord.Precision.MISSED);
        assertThat(mix.precision().targetPct()).isEqualTo(0.01);
        assertThat(mix.precision().rps().iterationSdPct()).as("two iterations a fork: their scatter is known").isNotNaN();
        assertThat(mix.repeats().rps().halfWidthPct()).isPositive();
        StepRecord plaintext = steps.stream().filter(s -> s.key().scenario().equals("plaintext")).findFirst().orElseThrow();
        assertThat(plaintext.precision().forks()).as("a scenario without a target keeps its planned forks").isEqualTo(2);
        assertThat(plaintext.precision().status()).isEmpty();

        List<SampleRecord> added = SamplesCsv.TABLE.read(run.resolve(SamplesCsv.FILE)).stream()
                .filter(s -> s.repeat() == 3).toList();
        assertThat(added).isNotEmpty().allSatisfy(s -> assertThat(s.key().scenario()).isEqualTo("mix"));
        assertThat(added).allSatisfy(s -> assertThat(run.resolve(s.raw())).isRegularFile());
        assertThat(run.resolve("logs").resolve("vertx-r3.log")).isRegularFile();
    }
}
