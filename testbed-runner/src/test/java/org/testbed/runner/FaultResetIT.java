package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.figure.Figure;

/**
 * {@code --fault reset:3s+2s} end to end: the variant (vertx) reaches the runner's memcached through
 * Toxiproxy, whose {@code reset_peer} toxic resets every connection for 2 s of the window. The step
 * records its recovery and what the resets cost, no wrong answer, and the proxy is gone with the run.
 */
class FaultResetIT {

    @Test
    void everyConnectionToTheStoreResetForTwoSeconds() throws Exception {
        Path run = Path.of("target", "fault-reset-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String output = RunnerJar.run(120, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--scenarios", "mix", "--concurrency", "16", "--duration", "12s", "--warmup", "2s", "--forks", "1",
                "--iterations", "1", "--fault", "reset:3s+2s", "--run-id", "reset", "--out", run.toString());
        List<StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE));
        assertThat(steps).hasSize(1);
        StepRecord s = steps.get(0);
        assertThat(s.key().conditions().label()).isEqualTo("reset3s+2s");
        assertThat(s.measured().get(Figure.UNRECOVERED)).isZero();
        // Back by itself once the resets stop: the store client reconnects with a back-off of its own,
        // which on a busy machine has taken more than 3 s; the window leaves it 7.
        assertThat(s.measured().get(Figure.RECOVERY)).isBetween(0.0, 7.0);
        // The variant cannot reach its store: it answers 503, or its own connection breaks.
        assertThat(s.measured().get(Figure.FAULT_STATUS) + s.measured().get(Figure.FAULT_CONNECTION)).isPositive();
        assertThat(s.measured().get(Figure.WRONG)).isZero();

        Matcher proxy = Pattern.compile("toxiproxy \\S+ started \\([^)]*, pid (\\d+)\\)").matcher(output);
        assertThat(proxy.find()).as("the proxy in the run's output:\n" + output).isTrue();
        assertThat(ProcessHandle.of(Long.parseLong(proxy.group(1))).filter(ProcessHandle::isAlive)).isEmpty();
    }
}
