package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;

/**
 * Does {@code compare} tell noise from signal, on a machine that is not quiet? Two experiments
 * whose answer is known, run as a user runs them (forks × iterations, short windows), each while
 * another process keeps the load CPU busy ({@link BackgroundLoad}: about a third of a 2-CPU
 * machine), as on a shared CI machine:
 * <ul>
 *   <li>A/A: the same build and command twice; every row of compare.csv must say
 *       {@code within noise}. If one does not, the interval is too narrow: fix the method.</li>
 *   <li>A/B with a known effect: the delay scenario (150 ms of simulated I/O) at 400 users on a sync
 *       variant with 20 worker threads, then 200. Little's law bounds it at 20 / 0.15 s = 133 req/s
 *       against 200 / 0.15 s = 1333 req/s: compare must call B {@code faster} on throughput, whatever
 *       flags the busy machine puts beside it.</li>
 * </ul>
 */
class TrustIT {
    private static final long BACKGROUND_LIMIT_S = 600;

    @Test
    void theSameCommandTwiceIsWithinNoiseOnEveryRowOnABusyMachine() throws Exception {
        String[] command = {"--variants", "vertx", "--scenarios", "mix", "--concurrency", "16", "--duration", "2s",
                // Six windows a run, counted below, and the neighbour is the point: no window is measured again.
                "--warmup", "60s", "--forks", "2", "--iterations", "3", "--slow-machine", "0"};
        Path a;
        Path b;
        try (BackgroundLoad busy = BackgroundLoad.onCpu(BackgroundLoad.loadCpu(), BACKGROUND_LIMIT_S)) {
            a = run("aa-1", command);
            b = run("aa-2", command);
            assertThat(busy.running()).as("the background load lasted the whole experiment").isTrue();
        }
        for (Path run : List.of(a, b)) {
            List<SampleRecord> samples = SamplesCsv.TABLE.read(run.resolve(SamplesCsv.FILE));
            assertThat(samples).as("2 forks x 3 iterations").hasSize(6);
            assertThat(samples).extracting(SampleRecord::repeat).containsExactly(1, 1, 1, 2, 2, 2);
            assertThat(samples).extracting(SampleRecord::iteration).containsExactly(1, 2, 3, 1, 2, 3);
            StepRecord step = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE)).get(0);
            assertThat(step.repeats().count()).isEqualTo(6);
            assertThat(step.repeats().rps().ciLow()).isLessThan(step.repeats().rps().ciHigh());
            assertThat(step.steadiness().warmupS()).as("warm-up actually used").isPositive().isLessThanOrEqualTo(60.5);
            assertThat(samples).as("every warm-up settled before its limit").allMatch(s -> s.caveats().warmupSettled());
        }
        RunnerJar.run(60, "compare", a.toString(), b.toString());
        List<Map<String, String>> rows = compareCsv(b);
        // The figures a user is promised: rps, p99 and CPU. (The saturation readings are compared too, as
        // diagnostics: they move with whatever else the machine runs, and are not what this test is about.)
        List<Map<String, String>> figures = rows.stream().filter(r -> List.of("rps", "p99", "cpu").contains(r.get("metric"))).toList();
        assertThat(figures).as("rps, p99 and CPU of the one step").hasSize(3);
        assertThat(figures).allSatisfy(r -> assertThat(r.get("verdict")).as(r.toString()).isEqualTo("within noise"));
    }

    @Test
    void tenTimesTheThreadsOnTheDelayScenarioIsFasterOnABusyMachine() throws Exception {
        // A 10x effect set by Little's law, not by the JIT: a short warm-up does.
        String[] common = {"--variants", "servlet-tomcat-sync", "--scenarios", "delay", "--concurrency", "400",
                "--delay-ms", "150", "--duration", "3s", "--warmup", "10s", "--forks", "2", "--iterations", "2"};
        Path few;
        Path many;
        try (BackgroundLoad busy = BackgroundLoad.onCpu(BackgroundLoad.loadCpu(), BACKGROUND_LIMIT_S)) {
            few = run("ab-20", concat(common, "--threads", "20"));
            many = run("ab-200", concat(common, "--threads", "200"));
            assertThat(busy.running()).as("the background load lasted the whole experiment").isTrue();
        }
        RunnerJar.run(60, "compare", few.toString(), many.toString());
        Map<String, Map<String, String>> byMetric = new HashMap<>();
        for (Map<String, String> r : compareCsv(many)) {
            byMetric.put(r.get("metric"), r);
        }
        Map<String, String> rps = byMetric.get("rps");
        assertThat(rps).as("the rps row of compare.csv").isNotNull();
        assertThat(rps.get("verdict")).as(rps.toString()).isEqualTo("faster");
        // Little's law: 1333 / 133 = 10. Seen here: 115 against 1267 req/s (11.0x): the first answers of
        // a 3 s window at 20 threads come 150 ms in, which costs A a larger share than B.
        assertThat(Double.parseDouble(rps.get("ratio"))).isBetween(6.0, 14.0);
        assertThat(Double.parseDouble(rps.get("ci_low"))).isGreaterThan(1.0);
    }

    private static Path run(String id, String... args) throws Exception {
        Path out = Path.of("target", "trust-" + id).toAbsolutePath();
        RunnerJar.deleteRecursively(out);
        String[] full = concat(new String[] {"run", "--root", RunnerJar.ROOT.toString(), "--run-id", id, "--out",
                out.toString()}, args);
        RunnerJar.run(300, full);
        return out;
    }

    private static List<Map<String, String>> compareCsv(Path dir) throws Exception {
        Path file = dir.resolve("compare.csv");
        assertThat(file).isRegularFile();
        List<List<String>> lines = Csv.parse(Files.readString(file));
        List<String> header = lines.get(0);
        assertThat(header).startsWith("variant", "scenario", "level", "metric", "a", "b", "ratio", "ci_low", "ci_high",
                "verdict");
        return lines.subList(1, lines.size()).stream().map(line -> {
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                m.put(header.get(i), i < line.size() ? line.get(i) : "");
            }
            return m;
        }).toList();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
