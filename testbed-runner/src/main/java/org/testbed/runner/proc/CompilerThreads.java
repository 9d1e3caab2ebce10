package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The JIT compiler threads of a HotSpot JVM as the kernel sees them: for each, the CPU time it has
 * run and the time it has waited on a run queue ({@code /proc/PID/task/TID/schedstat}, fields one
 * and two, nanoseconds). Their sum over a second is how busy the JIT was, whether or not it got a
 * CPU: a compiler thread that is runnable but starved, because 200 request threads share its one
 * core, adds a second of wait per second while finishing nothing. The JVM's own counter
 * ({@code java.ci.totalTime}) grows only when a compilation finishes, so such a starved compiler
 * reads as quiet there: spring-tomcat on one core sat at a quarter of its steady throughput for
 * 40 s with its compiler threads waiting 1–2 s per second and {@code java.ci.totalTime} barely
 * moving.
 *
 * <p>HotSpot names them {@code C1 CompilerThreadN}, {@code C2 CompilerThreadN} (and
 * {@code JVMCI CompilerThreadN}); the kernel keeps the first 15 bytes, so they are matched on
 * {@value #NAME_PART}. Since JDK 9 the JVM adds and removes compiler threads as its queue grows and
 * shrinks, so the set is read anew each time.
 *
 * @param threads thread id to its cumulative times
 */
public record CompilerThreads(Map<Long, Times> threads) {
    /** What every compiler thread's name contains, within the kernel's 15 bytes. */
    public static final String NAME_PART = "CompilerT";

    /**
     * One thread's cumulative times.
     *
     * @param runNanos time on a CPU
     * @param waitNanos time runnable but waiting for a CPU
     */
    public record Times(long runNanos, long waitNanos) {
    }

    /** The compiler threads of process {@code pid} now, or null when its tasks cannot be read (it is gone). */
    public static CompilerThreads read(long pid) {
        Map<Long, Times> threads = new LinkedHashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    if (!Files.readString(task.resolve("comm")).contains(NAME_PART)) {
                        continue;
                    }
                    threads.put(Long.parseLong(task.getFileName().toString()),
                            parseSchedstat(Files.readString(task.resolve("schedstat"))));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the reading: it did no more work
                }
            }
        } catch (IOException e) {
            return null;
        }
        return new CompilerThreads(threads);
    }

    /**
     * The same from lines {@code TID RUN_NS WAIT_NS [SLICES]} (what a shell loop over
     * {@code /proc/PID/task/*} prints on another machine); null for empty or unreadable text.
     */
    public static CompilerThreads parse(String lines) {
        Map<Long, Times> threads = new LinkedHashMap<>();
        try {
            for (String line : lines.strip().split("\\R")) {
                String[] f = line.strip().split("\\s+");
                if (f.length >= 3) {
                    threads.put(Long.parseLong(f[0]), new Times(Long.parseLong(f[1]), Long.parseLong(f[2])));
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return threads.isEmpty() ? null : new CompilerThreads(threads);
    }

    static Times parseSchedstat(String text) {
        String[] f = text.strip().split("\\s+");
        return new Times(Long.parseLong(f[0]), Long.parseLong(f[1]));
    }

    /** The thread ids. */
    public Set<Long> ids() {
        return threads.keySet();
    }

    /**
     * Milliseconds the compilers ran or waited to run since {@code earlier}: for a thread in both
     * readings the difference, for a thread new since then all of its time (it began after
     * {@code earlier}); a thread that ended in between is counted up to {@code earlier} only.
     */
    public double busyMillisSince(CompilerThreads earlier) {
        long nanos = 0;
        for (Map.Entry<Long, Times> e : threads.entrySet()) {
            Times now = e.getValue();
            Times then = earlier.threads.get(e.getKey());
            nanos += then == null ? now.runNanos + now.waitNanos
                    : Math.max(0, now.runNanos - then.runNanos) + Math.max(0, now.waitNanos - then.waitNanos);
        }
        return nanos / 1e6;
    }
}
