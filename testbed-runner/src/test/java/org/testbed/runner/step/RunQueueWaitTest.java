package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.Saturation;
import org.testbed.runner.proc.CgroupCpu;
import org.testbed.runner.proc.SaturationReading;

/**
 * The run-queue wait is real: a child JVM whose two busy threads are pinned to one CPU with
 * {@code taskset -c 0} waits, between two readings, about as long as the readings are apart (each
 * thread waits while the other runs), and the step's figures say it was queued.
 */
class RunQueueWaitTest {

    @Test
    void twoBusyThreadsOnOneCpuQueueForIt() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder("taskset", "-c", "0", java.toString(), "-Xmx32m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), TwoSpinners.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("spinning");
            Optional<CgroupCpu> cgroup = CgroupCpu.locate(child.pid());
            SaturationReading first = SaturationReading.read(child.pid(), cgroup);
            Thread.sleep(1_000);
            SaturationReading second = SaturationReading.read(child.pid(), cgroup);

            assertThat(second.allowedCpus()).as("taskset -c 0").isEqualTo(1);
            SaturationAccounting accounting = SaturationAccounting.of(snapshot(first), snapshot(second), 1_000);
            Saturation s = accounting.figures();
            // Two runnable threads on one CPU: one waits whenever the other runs, so the wait is
            // about the window itself; a third of it leaves room for whatever else ran on CPU 0.
            assertThat(s.runQueueWaitPct()).isGreaterThan(30);
            // (to a relative 1e-9: the figures are computed in another order than here)
            assertThat(accounting.windowS()).isCloseTo((second.nanos() - first.nanos()) / 1e9, withinPercentage(1e-7));
            assertThat(s.runQueueWaitUsPerReq()).isCloseTo(accounting.threads().waitNanos() / 1e3 / 1_000, withinPercentage(1e-7));
            assertThat(s.involuntarySwitchesPerReq()).as("each is preempted when its slice ends").isPositive();
            assertThat(SaturationAccounting.headline(s, 1_000)).contains("queued");
            assertThat(accounting.describe(1_000)).contains("run-queue wait").contains("x 1 CPU(s) it could use");
        } finally {
            child.destroyForcibly();
            child.waitFor();
        }
    }

    @Test
    void aQuietStepSaysNothingAndAnOverflowingOneSaysSo() {
        Saturation quiet = new Saturation(3, 2, 0.01, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN);
        assertThat(SaturationAccounting.headline(quiet, 1_000)).isEmpty();
        Saturation loud = new Saturation(85, 40, 0.5, 0, 120, 120, 7, 1.5, 30, 350);
        assertThat(SaturationAccounting.headline(loud, 700)).isEqualTo("  queued 40% of its time (85 µs/req)"
                + "  listen queue overflowed 120×  7 TCP retransmits  throttled 350 ms by its cgroup's 1.50 CPUs");
        assertThat(SaturationAccounting.headline(loud, 20_000)).as("7 retransmits in 20000 requests: the namespace's background")
                .doesNotContain("retransmits");
        assertThat(SaturationAccounting.headline(Saturation.UNKNOWN, 1_000)).isEmpty();
    }

    private static ServerSnapshot snapshot(SaturationReading reading) {
        return new ServerSnapshot(null, null, null, null, null, Optional.empty(), reading);
    }
}
