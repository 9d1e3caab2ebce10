package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.schema.ResultRow;
import org.testbed.schema.ResultsCsv;
import org.testbed.runner.csv.StepRecord;
import org.testbed.runner.csv.StepsCsv;

/** {@code run --metrics}: the variant records its metrics and is scraped once a second during the step. */
class MetricsRunIT {

    @Test
    void aRunWithMetricsScrapesEverySecondAndSaysSoInItsRows() throws Exception {
        Path run = Path.of("target", "metrics-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx", "--scenarios", "mix",
                "--concurrency", "8", "--duration", "3s", "--warmup", "2s", "--repeat", "1", "--metrics",
                "--run-id", "metrics", "--out", run.toString());
        List<ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).conditions().label()).isEqualTo("metrics");
        assertThat(rows.get(0).errors()).isZero();
        StepRecord step = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE)).get(0);
        String raw = Files.readString(run.resolve(step.raw()));
        // A 3 s window scraped once a second, the first at once: 3 or 4 scrapes, none failed.
        assertThat(raw).containsPattern("metrics scraped [34] time\\(s\\), once per 1 s \\(0 failed\\), [1-9][0-9]+ bytes each");
    }
}
