package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every thread of a process as the scheduler sees it: the time it ran on a CPU and the time it
 * waited on a run queue, runnable but without a CPU ({@code /proc/PID/task/TID/schedstat}, fields
 * one and two, nanoseconds), and how often
 * it was switched out while it still wanted to run ({@code nonvoluntary_ctxt_switches} of
 * {@code /proc/PID/task/TID/status}). Summed over a step's window, they say whether the server
 * was short of CPU: 200 sync workers on two cores queue, an event loop per core does not.
 *
 * <p>The kernel keeps both per thread only: a thread that ends takes its counts with it, and
 * {@code /proc/PID/schedstat} and {@code /proc/PID/status} are those of the main thread, not of
 * the process. So the difference of two readings ({@link #since}) counts, for a thread present in
 * both, what it added; for a thread born in between, all of it; and for a thread that ended in
 * between, nothing after the first reading: such threads are counted, so the loss shows. Reading
 * them takes two small files per thread and no privilege: 34 ms for a JVM of 220 threads on a
 * busy two-CPU machine, before and after the window, never inside it.
 *
 * @param threads thread id to its cumulative counts
 */
public record ThreadSchedules(Map<Long, Counts> threads) {

    /**
     * One thread's cumulative counts.
     *
     * @param runNanos time it ran on a CPU, user and kernel (the scheduler's own clock, to the nanosecond)
     * @param waitNanos time runnable on a run queue, waiting for a CPU
     * @param involuntarySwitches times it was preempted (its time slice ran out, or a thread of higher claim woke)
     */
    public record Counts(long runNanos, long waitNanos, long involuntarySwitches) {
        /** Counts without the run time (a reading that did not keep it). */
        public Counts(long waitNanos, long involuntarySwitches) {
            this(0, waitNanos, involuntarySwitches);
        }
    }

    /**
     * What happened between two readings.
     *
     * @param runNanos CPU time of the threads, summed: the server's CPU time at nanosecond resolution, but for what
     *                 threads that {@code ended} did after the first reading
     * @param waitNanos run-queue wait of the threads, summed
     * @param involuntarySwitches involuntary context switches, summed
     * @param started threads born in between (all their counts are in)
     * @param ended threads that ended in between (what they did after the first reading is lost)
     */
    public record Delta(long runNanos, long waitNanos, long involuntarySwitches, int started, int ended) {
        /** A delta without the run time. */
        public Delta(long waitNanos, long involuntarySwitches, int started, int ended) {
            this(0, waitNanos, involuntarySwitches, started, ended);
        }
    }

    /** The threads of process {@code pid} now; a thread that ends while it is read is left out (it is not there any more). */
    public static ThreadSchedules read(long pid) throws IOException {
        Map<Long, Counts> threads = new LinkedHashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String schedstat = Files.readString(task.resolve("schedstat"));
                    threads.put(Long.parseLong(task.getFileName().toString()),
                            new Counts(schedstatRun(schedstat), schedstatWait(schedstat),
                                    involuntarySwitches(Files.readString(task.resolve("status")))));
                } catch (IOException e) {
                    // ended between the listing and the reading
                }
            }
        }
        return new ThreadSchedules(threads);
    }

    /**
     * The same from what {@code grep -H '' /proc/PID/task/}{@code *}{@code /schedstat} and
     * {@code grep -H '^nonvoluntary_ctxt_switches' /proc/PID/task/}{@code *}{@code /status} print on
     * another machine: lines {@code /proc/PID/task/TID/FILE:CONTENT}. A thread with only one of the
     * two lines (it ended between the two greps) is left out.
     */
    public static ThreadSchedules parse(String schedstatLines, String statusLines) {
        Map<Long, String> schedstats = new LinkedHashMap<>();
        for (String line : schedstatLines.strip().split("\\R")) {
            if (!line.isBlank()) {
                schedstats.put(tidOf(line), line.substring(line.indexOf(':') + 1));
            }
        }
        Map<Long, Counts> threads = new LinkedHashMap<>();
        for (String line : statusLines.strip().split("\\R")) {
            if (!line.isBlank()) {
                long tid = tidOf(line);
                String schedstat = schedstats.get(tid);
                if (schedstat != null) {
                    threads.put(tid, new Counts(schedstatRun(schedstat), schedstatWait(schedstat),
                            involuntarySwitches(line.substring(line.indexOf(':') + 1))));
                }
            }
        }
        return new ThreadSchedules(threads);
    }

    /** Field one of a schedstat line ({@code RUN_NS WAIT_NS TIMESLICES}). */
    static long schedstatRun(String schedstat) {
        String[] f = schedstat.strip().split("\\s+");
        if (f.length < 2) {
            throw new IllegalArgumentException("not a schedstat line: " + schedstat.strip());
        }
        return Long.parseLong(f[0]);
    }

    /** Field two of a schedstat line ({@code RUN_NS WAIT_NS TIMESLICES}). */
    static long schedstatWait(String schedstat) {
        String[] f = schedstat.strip().split("\\s+");
        if (f.length < 2) {
            throw new IllegalArgumentException("not a schedstat line: " + schedstat.strip());
        }
        return Long.parseLong(f[1]);
    }

    /** The {@code nonvoluntary_ctxt_switches:} line of a status file. */
    static long involuntarySwitches(String status) {
        for (String line : status.split("\\R")) {
            if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        throw new IllegalArgumentException("no nonvoluntary_ctxt_switches line in a task's status");
    }

    private static long tidOf(String line) {
        // /proc/PID/task/TID/FILE:...
        String path = line.substring(0, line.indexOf(':'));
        String[] parts = path.split("/");
        if (parts.length < 6 || !parts[3].equals("task")) {
            throw new IllegalArgumentException("not a /proc/PID/task/TID/ line: " + line);
        }
        return Long.parseLong(parts[4]);
    }

    /** What the threads did since {@code earlier} (see the class comment for threads born or ended in between). */
    public Delta since(ThreadSchedules earlier) {
        long run = 0;
        long wait = 0;
        long switches = 0;
        int started = 0;
        for (Map.Entry<Long, Counts> e : threads.entrySet()) {
            Counts now = e.getValue();
            Counts then = earlier.threads.get(e.getKey());
            if (then == null) {
                started++;
                run += now.runNanos;
                wait += now.waitNanos;
                switches += now.involuntarySwitches;
            } else {
                run += Math.max(0, now.runNanos - then.runNanos);
                wait += Math.max(0, now.waitNanos - then.waitNanos);
                switches += Math.max(0, now.involuntarySwitches - then.involuntarySwitches);
            }
        }
        int ended = (int) earlier.threads.keySet().stream().filter(tid -> !threads.containsKey(tid)).count();
        return new Delta(run, wait, switches, started, ended);
    }
}
