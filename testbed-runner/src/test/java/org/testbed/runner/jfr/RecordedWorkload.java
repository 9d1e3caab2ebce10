package org.testbed.runner.jfr;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The JVM {@link WindowSummaryTest} records, on JDK 21 or later: it records itself with the JDK's
 * {@code default} settings as the runner's jcmd does, pins twice before its window, then inside the
 * window pins three times, holds a monitor 100 ms against a thread waiting for it, collects twice
 * and allocates 200 MB, then pins twice after it, and writes the recording to the file named by its
 * argument. It prints the window's ends as {@code window-start=INSTANT} and {@code window-end=INSTANT}.
 */
public final class RecordedWorkload {
    static final int PINS_INSIDE = 3;
    static final long HOLD_MILLIS = 100;
    static final long ALLOCATED_BYTES = 200_000_000L;
    /** The class whose monitor is contended, as {@code jdk.JavaMonitorEnter} names it. */
    static final class Contended {
    }

    private RecordedWorkload() {
    }

    public static void main(String[] args) throws Exception {
        try (Recording recording = new Recording(Configuration.getConfiguration("default"))) {
            recording.enable("jdk.SafepointBegin").withThreshold(Duration.ZERO);
            recording.enable("jdk.SafepointEnd").withThreshold(Duration.ZERO);
            recording.start();
            work();
            recording.stop();
            recording.dump(Path.of(args[0]));
        }
    }

    private static void work() throws Exception {
        pin(2);
        Thread.sleep(200);
        System.out.println("window-start=" + Instant.now());
        Thread.sleep(50);
        pin(PINS_INSIDE);
        contend();
        System.gc();
        System.gc();
        allocate();
        Thread.sleep(50);
        System.out.println("window-end=" + Instant.now());
        Thread.sleep(200);
        pin(2);
        System.out.flush();
    }

    private static void pin(int times) throws Exception {
        for (int i = 0; i < times; i++) {
            Pinning.pinOnce();
        }
    }

    private static void contend() throws InterruptedException {
        Contended monitor = new Contended();
        Thread holder = new Thread(() -> {
            synchronized (monitor) {
                sleep(HOLD_MILLIS);
            }
        });
        holder.start();
        sleep(10);
        Thread waiter = new Thread(() -> {
            synchronized (monitor) {
                monitor.hashCode();
            }
        });
        waiter.start();
        holder.join();
        waiter.join();
    }

    /** Allocation the JIT cannot remove: every array is kept until the next batch replaces it. */
    private static void allocate() {
        List<byte[]> kept = new ArrayList<>();
        for (long done = 0; done < ALLOCATED_BYTES; done += 10_000) {
            kept.add(new byte[10_000]);
            if (kept.size() == 1000) {
                kept = new ArrayList<>();
            }
        }
        System.out.println("kept " + kept.size());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
