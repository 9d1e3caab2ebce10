package org.testbed.driver.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code /proc/PID/stat} says about a process's CPU time: user and system time of all its
 * threads, in clock ticks ({@code getconf CLK_TCK}, usually 100 per second), plus the same for its
 * waited-for children. These counters are what the Tomcat-vs-Netty study read before and after each
 * step; their difference divided by the requests served is the CPU cost of one request.
 *
 * @param utime user-mode ticks (field 14)
 * @param stime kernel-mode ticks (field 15)
 * @param cutime user-mode ticks of waited-for children (field 16)
 * @param cstime kernel-mode ticks of waited-for children (field 17)
 * @param threads the threads it has now (field 20): a pool's size, or how few carriers virtual threads need
 */
public record ProcStat(long utime, long stime, long cutime, long cstime, long threads) {

    /** Reads {@code /proc/PID/stat}. */
    public static ProcStat read(long pid) throws IOException {
        return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    }

    /** Reads {@code /proc/self/stat}: this JVM. */
    public static ProcStat self() throws IOException {
        return parse(Files.readString(Path.of("/proc/self/stat")));
    }

    /**
     * Parses one {@code stat} line. The second field, the command name in parentheses, may itself
     * contain spaces and parentheses, so fields are counted from the last {@code ')'}.
     */
    public static ProcStat parse(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + abbreviate(stat));
        }
        // After ") ": field 3 (state) is index 0, so field N is index N - 3.
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        if (fields.length < 18) {
            throw new IllegalArgumentException("too few fields in /proc/PID/stat: " + abbreviate(stat));
        }
        try {
            return new ProcStat(Long.parseLong(fields[14 - 3]), Long.parseLong(fields[15 - 3]),
                    Long.parseLong(fields[16 - 3]), Long.parseLong(fields[17 - 3]), Long.parseLong(fields[20 - 3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unreadable CPU times in /proc/PID/stat: " + abbreviate(stat), e);
        }
    }

    /** This minus {@code earlier}, field by field; the threads are this reading's (a count, not a total). */
    public ProcStat minus(ProcStat earlier) {
        return new ProcStat(utime - earlier.utime, stime - earlier.stime, cutime - earlier.cutime, cstime - earlier.cstime,
                threads);
    }

    /** Own user plus system ticks. */
    public long ticks() {
        return utime + stime;
    }

    /** Children's user plus system ticks. */
    public long childTicks() {
        return cutime + cstime;
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s.strip() : s.substring(0, 120) + "...";
    }
}
