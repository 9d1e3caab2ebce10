package org.testbed.runner.proc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.testbed.runner.step.Pinning;

/** The reference's threads on a real CPU: pinned by taskset as the run pins them, probing, and gone once closed. */
class SpeedReferenceTest {

    @Test
    void eachThreadIsPinnedToItsCpuProbesItAndEndsWhenClosed() throws Exception {
        List<Integer> cpus = Pinning.allowedCpus();
        SpeedReference reference = SpeedReference.start(cpus, Duration.ofMillis(50),
                (tid, cpu) -> Pinning.pinThread(tid, Integer.toString(cpu)));
        List<Long> tids = reference.tids();
        try {
            for (int i = 0; i < cpus.size(); i++) {
                assertThat(allowedCpus(tids.get(i))).as("thread %d's affinity", tids.get(i)).isEqualTo(Integer.toString(cpus.get(i)));
                assertThat(reference.readings(cpus.get(i))).as("calibrated on start")
                        .hasSizeGreaterThanOrEqualTo(SpeedReference.CALIBRATION_PROBES);
            }
            long from = System.nanoTime();
            reference.nudge(Duration.ZERO);
            while (reference.within(cpus, from, System.nanoTime()).size() < 2 * cpus.size()) {
                Thread.sleep(20);
            }
            long to = System.nanoTime();
            for (SpeedReference.Reading r : reference.within(cpus, from, to)) {
                assertThat(r.cpuNanos()).isPositive();
                assertThat(reference.speedOf(r)).isGreaterThan(0);
            }
            OptionalDouble speed = reference.speedOver(cpus, from, to);
            assertThat(speed).isPresent();
            assertThat(speed.getAsDouble()).isGreaterThan(0);
            assertThat(reference.speedOver(cpus, to + 1, to + 2)).as("no probe in an empty span").isEmpty();
            assertThat(reference.cpuNanos()).isPositive();
        } finally {
            reference.close();
        }
        assertThat(reference.threads()).noneMatch(Thread::isAlive);
        for (long tid : tids) {
            // A joined Java thread's kernel task may linger a moment while its native side unwinds.
            Path task = Path.of("/proc/self/task/" + tid);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (Files.exists(task) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(task).as("thread %d gone from the process", tid).doesNotExist();
        }
    }

    @Test
    void aThreadThatCannotBePinnedStopsTheStartAndTheOthers() {
        try {
            SpeedReference.start(List.of(0), Duration.ofMillis(50), (tid, cpu) -> {
                throw new IOException("no such CPU");
            });
            throw new AssertionError("started");
        } catch (IOException e) {
            assertThat(e).hasMessageContaining("CPU 0").hasMessageContaining("no such CPU");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code Cpus_allowed_list} of one thread of this process. */
    private static String allowedCpus(long tid) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/task/" + tid + "/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).strip())
                .findFirst().orElseThrow();
    }
}
