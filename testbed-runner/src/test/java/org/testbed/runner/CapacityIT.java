package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;

/**
 * {@code run --sla}: the capacity search converges on a limit known in advance. A sync variant with
 * 4 threads, each request holding one for 100 ms, completes at most 4 / 0.1 s = 40 requests per
 * second (Little's law); offered more, its queue grows by the excess every second, and p99 leaves
 * 200 ms within a 3 s step. So the capacity under p99 <= 200 ms must land just under 40.
 */
class CapacityIT {

    @Test
    void theSearchFindsTheThreadsOverDelayLimitOfASyncVariant() throws Exception {
        Path run = Path.of("target", "capacity-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String output = RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "servlet-tomcat-sync",
                "--scenarios", "delay", "--threads", "4", "--delay-ms", "100", "--sla", "p99<=200ms", "--sla-rates", "10:160",
                "--duration", "3s", "--warmup", "4s", "--repeat", "1", "--iterations", "1", "--run-id", "capacity", "--out", run.toString());

        List<CapacityRecord> searches = CapacityCsv.TABLE.read(run.resolve(CapacityCsv.FILE));
        assertThat(searches).hasSize(1);
        CapacityRecord found = searches.get(0);
        assertThat(found.sla()).isEqualTo("p99<=200ms");
        // 5 % precision below 40, and a little room for a server that loses a request's worth of time.
        assertThat(found.capacityRps()).as(found.reason()).isBetween(32.0, 42.0);
        assertThat(found.reason()).contains("met p99<=200ms").contains("missed it");

        // Every probe is a step of its own, open model, marked with the SLA it probed for.
        List<ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE));
        List<StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE));
        assertThat(rows).hasSize(found.probes()).allSatisfy(r -> assertThat(r.targetRps()).isPositive());
        assertThat(steps).hasSize(found.probes()).allSatisfy(s -> assertThat(s.setup().sla()).isEqualTo("p99<=200ms"));
        assertThat(rows).anySatisfy(r -> assertThat(r.targetRps()).isEqualTo(found.capacityRps()));
        assertThat(output).contains("capacity of servlet-tomcat-sync delay under p99<=200ms");
        assertThat(Files.readString(run.resolve("report.html"))).containsPattern("\"capacity\"\\s*:\\s*\\[");
    }

    @Test
    void anUnreachableSlaIsCapacityZeroWithTheReason() throws Exception {
        Path run = Path.of("target", "capacity-unreachable").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        // Every request waits 100 ms: no rate can have a p99 of 50 ms.
        RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx", "--scenarios", "delay",
                "--delay-ms", "100", "--sla", "p99<=50ms", "--sla-rates", "20:80", "--duration", "2s", "--warmup", "2s",
                "--repeat", "1", "--iterations", "1", "--run-id", "unreachable", "--out", run.toString());
        CapacityRecord found = CapacityCsv.TABLE.read(run.resolve(CapacityCsv.FILE)).get(0);
        assertThat(found.capacityRps()).isZero();
        assertThat(found.probes()).isEqualTo(1);
        assertThat(found.reason()).startsWith("even the lowest rate, 20 req/s, missed p99<=50ms: p99 was 1");
    }

    @Test
    void aMalformedSlaIsAUsageErrorBeforeAnythingStarts() throws Exception {
        RunnerJar.Outcome outcome = RunnerJar.call(60, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--sla", "p99 under 5ms", "--out", Path.of("target", "capacity-malformed").toAbsolutePath().toString());
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.output()).contains("'p99 under 5ms' is not an SLA").contains("p99<=5ms").doesNotContain("Exception");
        assertThat(Path.of("target", "capacity-malformed")).doesNotExist();
    }
}
