package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.toxiproxy.ToxiproxyBuild;

/**
 * {@code run --conditions plain,store10ms}: one variant measured with memcached as near as it is,
 * then through Toxiproxy with every reply of memcached 10 ms late. Every request of the mix waits
 * on memcached at least once, so the store latency must show in the median (at least 10 ms) and
 * not without it; the rows say which they measured; environment.json names the proxy; compare
 * prices the distance within the one run; and neither the proxy nor memcached outlives the run.
 *
 * <p>Needs toxiproxy: built here if this machine has Go ({@code ./testbed test} installs Go as root);
 * without Go the test is skipped with the reason, a failed build fails it.
 */
class StoreLatencyRunIT {
    private static final Pattern PID = Pattern.compile("(memcached|toxiproxy) .*?\\bpid (\\d+)\\)");

    @Test
    void theStoreLatencyShowsInTheMedianAndNothingIsLeftRunning() throws Exception {
        String reason = ToxiproxyBuild.unavailable(System.out).orElse(null);
        if (reason != null) {
            System.out.println("testbed: StoreLatencyRunIT skipped: " + reason);
            Assumptions.abort(reason);
        }
        Path run = Path.of("target", "store-latency-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String output = RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--scenarios", "mix", "--concurrency", "8", "--conditions", "plain,store10ms",
                // Three samples a step, the row their median: one window starved of CPU by another process on a
                // shared machine (a cold JVM's first seconds) does not decide the median.
                "--duration", "2s", "--warmup", "5s", "--repeat", "1", "--iterations", "3", "--precision", "none",
                "--run-id", "store-latency", "--out", run.toString());
        assertThat(output).contains("conditions plain,store10ms").contains("toxiproxy " + ToxiproxyBuild.VERSION + " started");

        Map<String, ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE)).stream()
                .collect(Collectors.toMap(r -> r.conditions().label(), Function.identity()));
        assertThat(rows).containsOnlyKeys("plain", "store10ms");
        assertThat(rows.values()).allSatisfy(r -> {
            assertThat(r.throughput().errors()).as("errors under %s", r.conditions()).isZero();
            assertThat(r.throughput().rps()).isPositive();
        });
        assertThat(rows.get("store10ms").latency().p50Ms()).as("p50 with memcached 10 ms away").isGreaterThanOrEqualTo(10.0);
        assertThat(rows.get("plain").latency().p50Ms()).as("p50 with memcached near").isLessThan(10.0);

        assertThat(new ObjectMapper().readTree(run.resolve("environment.json").toFile()).path("tools").path("toxiproxy").asText())
                .isEqualTo("toxiproxy " + ToxiproxyBuild.VERSION);

        String priced = RunnerJar.run(60, "compare", run.toString(), run.toString(), "--conditions", "plain:store10ms",
                "--out", run.resolve("store-latency.html").toString());
        assertThat(priced).contains("A under plain, B under store10ms").contains("matched 1 step(s)");

        List<Long> started = pids(output);
        assertThat(started).as("the pids of the run's memcached and toxiproxy, from its output").hasSize(2);
        assertThat(started).allSatisfy(pid -> assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                .as("process %d after the run", pid).isEmpty());
    }

    private static List<Long> pids(String output) {
        Matcher m = PID.matcher(output);
        List<Long> pids = new java.util.ArrayList<>();
        while (m.find()) {
            pids.add(Long.parseLong(m.group(2)));
        }
        return pids;
    }
}
