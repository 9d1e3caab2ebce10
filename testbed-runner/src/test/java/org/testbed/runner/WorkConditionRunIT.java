package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;

/**
 * {@code run --conditions plain,work500us}: the planted work reaches the server. The variant under
 * {@code work500us} is started with {@code --work-us 500} (its log says the calibration), and every
 * item request of the mix then costs it at least half the planted 500 µs of CPU more than under
 * plain. A lower bound on server CPU per request: a busy machine stretches the work, it cannot make
 * it cost less CPU. vertx, an event loop, which is where the work must run too. And compare matches
 * the two within the one run.
 */
class WorkConditionRunIT {
    private static final int WORK_US = 500;

    @Test
    void thePlantedWorkShowsInTheServersCpuPerRequest() throws Exception {
        Path run = Path.of("target", "work-condition-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String label = "work" + WORK_US + "us";
        String output = RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--scenarios", "mix", "--concurrency", "8", "--conditions", "plain," + label,
                "--duration", "2s", "--warmup", "5s", "--repeat", "1", "--iterations", "3", "--precision", "none",
                "--run-id", "work-condition", "--out", run.toString());
        assertThat(output).contains("conditions plain," + label);

        Map<String, ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE)).stream()
                .collect(Collectors.toMap(r -> r.conditions().label(), Function.identity()));
        assertThat(rows).containsOnlyKeys("plain", label);
        assertThat(rows.values()).allSatisfy(r -> {
            assertThat(r.throughput().errors()).as("errors under %s", r.conditions()).isZero();
            assertThat(r.throughput().rps()).isPositive();
        });
        double plainMs = rows.get("plain").server().cpuMsPerReq();
        double workMs = rows.get(label).server().cpuMsPerReq();
        assertThat(workMs - plainMs).as("server CPU per request under %s (%.3f ms) over plain (%.3f ms)", label, workMs, plainMs)
                .isGreaterThanOrEqualTo(WORK_US / 2 / 1000.0);

        assertThat(Files.readString(run.resolve("logs").resolve("vertx-" + label + ".log")))
                .contains("testbed: work " + WORK_US + " us per item request = ");
        assertThat(Files.readString(run.resolve("logs").resolve("vertx.log"))).doesNotContain("testbed: work ");

        String priced = RunnerJar.run(60, "compare", run.toString(), run.toString(), "--conditions", "plain:" + label,
                "--out", run.resolve("work-cost.html").toString());
        assertThat(priced).contains("A under plain, B under " + label).contains("matched 1 step(s)");
        List<String> cpu = priced.lines().filter(l -> l.startsWith("vertx") && l.split("\\s+")[3].equals("cpu")).toList();
        assertThat(cpu).as("compare's cpu line for vertx").hasSize(1);
        System.out.println("WorkConditionRunIT: plain " + plainMs + " ms/req, " + label + " " + workMs + " ms/req; " + cpu.get(0));
    }
}
