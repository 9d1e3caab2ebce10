package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.figure.Figure;
import org.testbed.variant.VariantManifest;

/**
 * {@code ./testbed run --driver jmeter} end to end: the packaged runner starts the vertx variant
 * from its jar against a real memcached and drives the mix with real JMeter (non-GUI, from the
 * JMeter home testbed-jmeter's build lays out) on a plan generated from the scenario library, a
 * closed-model level and an open-model one (JMeter's open-model thread group). Then the rows, the
 * operations and their errors, and the clear error when JMeter cannot start. What it asserts is what
 * the product promises, not what a quiet CPU allows: every answer right (no 5xx, no wrong status or
 * body), the rows and operations filled, the requests cut at the window's end counted as unfinished,
 * and at most a few requests without an answer (a busy 2-CPU machine's, not the server's).
 */
class JMeterRunIT {

    @Test
    void aRunOnJMeterFillsTheRowsAndOperationsOfItsSteps() throws Exception {
        Path root = RunnerJar.ROOT;
        assertThat(VariantManifest.load(root.resolve(VariantManifest.FILE_NAME)).find("vertx").jarIn(root))
                .as("the vertx jar, packaged before this test").isRegularFile();
        Path run = Path.of("target", "jmeter-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        RunnerJar.run(240, "run", "--root", root.toString(), "--variants", "vertx", "--driver", "jmeter",
                "--scenarios", "mix", "--concurrency", "8", "--rate", "50", "--duration", "3s", "--warmup", "1s",
                // One window a step, counted below: a window measured again on a slow machine is MachineSpeedRunIT's subject.
                "--forks", "1", "--iterations", "1", "--slow-machine", "0", "--run-id", "jmeter", "--out", run.toString());

        List<ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE));
        assertThat(rows).hasSize(2);
        ResultRow closed = rows.get(0);
        assertThat(closed.concurrency()).isEqualTo(8);
        assertThat(closed.driver()).isEqualTo("jmeter");
        assertThat(closed.throughput().requests()).isGreaterThan(100);
        // A busy machine may cost a request its answer within the timeout; never a wrong one (see the raw files below).
        assertThat(closed.throughput().errors()).as("errors of " + closed).isLessThanOrEqualTo(closed.throughput().requests() / 20);
        assertThat(closed.throughput().durationS()).isEqualTo(3.0);
        assertThat(closed.latency().p50Ms()).isLessThanOrEqualTo(closed.latency().p99Ms());
        assertThat(closed.latency().maxMs()).isPositive();
        assertThat(closed.server().cpuMsPerReq()).isPositive();
        // The open model on JMeter: 50 arrivals a second for 3 s, each a thread and a request of its own.
        // A low rate on purpose: a fresh JMeter starts its arrivals late and then sends the backlog at
        // once, each on a new connection (at 200/s, some 260 connects at once on a loaded CI machine).
        ResultRow open = rows.get(1);
        assertThat(open.driver()).isEqualTo("jmeter");
        assertThat(open.key().targetRps()).isEqualTo(50.0);
        assertThat(open.throughput().errors()).as("errors of " + open).isLessThanOrEqualTo(open.throughput().requests() / 20);
        // The arrivals still in flight when the window ended are counted apart, in a column of their own.
        List<SampleRecord> samples = SamplesCsv.TABLE.read(run.resolve(SamplesCsv.FILE));
        assertThat(samples).hasSize(2).allSatisfy(s -> assertThat(s.measured().has(Figure.UNFINISHED))
                .as("unfinished requests of " + s.key()).isTrue());
        double unfinished = samples.get(1).measured().get(Figure.UNFINISHED);
        assertThat(unfinished).as("at most the arrivals of the window's last second").isBetween(0.0, 50.0);
        // The window's 150 arrivals, answered or in flight at its end; more when a cold JMeter started late and sent
        // the warm-up's arrivals at once inside the window (its schedule lag says so), never more than its 250.
        assertThat(open.throughput().requests() + unfinished).as("arrivals in the window: answered, or in flight at its end")
                .isBetween(100.0, 250.0);

        List<OperationRecord> operations = OperationsCsv.TABLE.read(run.resolve(OperationsCsv.FILE)).stream()
                .filter(o -> o.key().concurrency() == 8).toList();
        assertThat(operations).extracting(OperationRecord::operation).containsExactly("GET", "POST", "PUT", "DELETE");
        assertThat(operations.stream().mapToLong(OperationRecord::requests).sum()).isEqualTo(closed.throughput().requests());
        assertThat(operations.stream().mapToLong(OperationRecord::errors).sum()).isEqualTo(closed.throughput().errors());
        OperationRecord get = operations.get(0);
        assertThat(get.requests() / (double) closed.throughput().requests()).as("GET's share of the mix").isBetween(0.7, 0.9);

        List<StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE));
        StepRecord openStep = steps.get(1);
        assertThat(openStep.driver().name()).isEqualTo("jmeter");
        String openRaw = Files.readString(run.resolve(openStep.files().raw()));
        assertThat(openRaw).contains("OpenModelThreadGroup")
                .contains("rate(50/sec) even_arrivals").contains("schedule lag").contains("NOT from the scheduled arrival")
                .contains("warm-up: 2 s").contains("unfinished=");
        assertThat(JMeterFailures.answered(openRaw)).as("answers the server got wrong (a 5xx, a status, a body)").isEmpty();
        StepRecord step = steps.get(0);
        assertThat(step.driver().name()).isEqualTo("jmeter");
        assertThat(step.driver().cpuPct()).as("JMeter's own CPU, in the load CPU share").isPositive();
        String raw = Files.readString(run.resolve(step.files().raw()));
        assertThat(raw).contains("Apache JMeter").contains("Starting standalone test").contains("operation PUT:")
                .contains("HdrHistogram percentile distribution");
        assertThat(JMeterFailures.answered(raw)).as("answers the server got wrong (a 5xx, a status, a body)").isEmpty();
        Path hlog = run.resolve(step.files().raw().replace(".txt", ".hlog"));
        assertThat(Files.readString(hlog)).as("JMeter's latencies second by second").contains("Tag=GET").contains("Tag=DELETE");
        try (var plans = Files.walk(run.resolve("jmeter"))) {
            assertThat(plans.filter(p -> p.getFileName().toString().equals("plan.jmx"))).as("a plan per step").hasSize(2);
        }
    }

    @Test
    void aJMeterThatCannotStartIsAClearErrorBeforeAnyServerStarts() throws Exception {
        Path root = RunnerJar.ROOT;
        Path run = Path.of("target", "jmeter-missing").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        RunnerJar.Outcome outcome = RunnerJar.call(120, Map.of("JMETER_HOME", run.resolve("no-jmeter-here").toString()),
                "run", "--root", root.toString(), "--variants", "vertx", "--driver", "jmeter", "--scenarios", "mix",
                "--concurrency", "4", "--duration", "1s", "--warmup", "0s", "--run-id", "nojmeter", "--out", run.toString());
        assertThat(outcome.exitCode()).isNotZero();
        assertThat(outcome.output()).contains("JMeter cannot start").contains("no-jmeter-here/bin/ApacheJMeter.jar is missing")
                .doesNotContain("listening on");
    }
}
