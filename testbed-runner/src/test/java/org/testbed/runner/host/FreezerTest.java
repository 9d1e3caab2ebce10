package org.testbed.runner.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A frozen process takes no CPU and runs again once thawed: with a real busy process, both ways of
 * freezing (the cgroup where this machine can make one, signals everywhere).
 */
class FreezerTest {

    @Test
    void signalsStopEveryThreadAndLetThemGoOn() throws Exception {
        stopsAndResumes(new Freezer.Signals(), true);
    }

    @Test
    void aCgroupStopsEveryThreadAndLetsThemGoOn() throws Exception {
        var parent = Freezer.Cgroup.ownGroup();
        assumeTrue(parent.isPresent(), "no cgroup v2 this process can make groups in (not root, or cgroup v1 only);"
                + " the runner freezes with signals there, tested above");
        Freezer.Cgroup freezer = new Freezer.Cgroup(parent.get());
        // A thread frozen by its cgroup sleeps in the kernel's freezer (state S), not stopped (T).
        stopsAndResumes(freezer, false);
        assertFalse(Files.exists(parent.get()), "the run's cgroup is removed once its servers are gone");
    }

    @Test
    void thawAllLetsAFrozenProcessGoSoThatItCanBeAskedToExit() throws Exception {
        Process busy = busyProcess();
        try {
            Freezer freezer = Freezer.here();
            freezer.freeze(busy.pid());
            Freezer.thawAll();
            assertTrue(Freezer.noThreadStopped(busy.pid()));
            busy.destroy();
            assertTrue(busy.waitFor(10, TimeUnit.SECONDS), "SIGTERM reaches a thawed process");
        } finally {
            busy.destroyForcibly().waitFor();
        }
    }

    private static void stopsAndResumes(Freezer freezer, boolean stoppedState) throws Exception {
        Process busy = busyProcess();
        try {
            awaitCpuAdvance(busy.pid());
            freezer.freeze(busy.pid());
            if (stoppedState) {
                assertTrue(Freezer.allThreadsStopped(busy.pid()), "every thread is stopped once freeze returns");
            }
            long frozenAt = cpuTicks(busy.pid());
            Thread.sleep(300);
            assertEquals(frozenAt, cpuTicks(busy.pid()), "a frozen process takes no CPU");
            freezer.thaw(busy.pid());
            if (stoppedState) {
                assertTrue(Freezer.noThreadStopped(busy.pid()), "no thread is stopped once thaw returns");
            }
            awaitCpuAdvance(busy.pid());
        } finally {
            freezer.release(busy.pid());
            busy.destroyForcibly().waitFor();
            freezer.close();
        }
    }

    /** A shell spinning on the CPU until it is killed. */
    private static Process busyProcess() throws IOException {
        return new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    }

    /** Waits until the process has used more CPU than when this was called: it is running. */
    private static void awaitCpuAdvance(long pid) throws Exception {
        long from = cpuTicks(pid);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (cpuTicks(pid) == from) {
            assertTrue(System.nanoTime() < deadline, "the process never ran");
            Thread.sleep(20);
        }
    }

    /** utime + stime of {@code /proc/PID/stat}, in clock ticks. */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
