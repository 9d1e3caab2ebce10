package org.testbed.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's limit on open files (each socket is one), read from {@code /proc/PID/limits}. On
 * Linux the JVM raises its soft limit to the hard one at start ({@code -XX:+MaxFDLimit}, the
 * default), so the hard limit is what a test holding a thousand sockets really depends on; the soft
 * one shows whether that raise happened.
 */
record OpenFileLimit(String process, long soft, long hard) {
    static final long UNLIMITED = Long.MAX_VALUE;

    static OpenFileLimit ofSelf() {
        return of("the test JVM", Path.of("/proc/self/limits"));
    }

    static OpenFileLimit of(String process, long pid) {
        return of(process, Path.of("/proc", Long.toString(pid), "limits"));
    }

    private static OpenFileLimit of(String process, Path limits) {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (line.startsWith("Max open files")) {
                    String[] fields = line.substring("Max open files".length()).strip().split("\\s+");
                    return new OpenFileLimit(process, parse(fields[0]), parse(fields[1]));
                }
            }
            throw new IllegalStateException("no \"Max open files\" line in " + limits);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + limits, e);
        }
    }

    private static long parse(String value) {
        return value.equals("unlimited") ? UNLIMITED : Long.parseLong(value);
    }

    /**
     * Fails, naming the limit and how to raise it, unless this process may open {@code needed}
     * files: the hard limit must allow it, and the soft one must have been raised to allow it.
     */
    void require(long needed, String why) {
        if (hard < needed) {
            throw new AssertionError(process + " may open at most " + hard + " files (hard limit of open files, "
                    + "ulimit -Hn), but " + why + " needs about " + needed + ": raise the hard limit (ulimit -Hn, "
                    + "LimitNOFILE= for a service, --ulimit nofile= for a container) and run again");
        }
        if (soft < needed) {
            throw new AssertionError(process + " may open " + soft + " files (soft limit; hard " + hard
                    + "), but " + why + " needs about " + needed + ": the JVM did not raise its soft limit "
                    + "(was it started with -XX:-MaxFDLimit?); raise it with ulimit -n " + needed);
        }
    }

    @Override
    public String toString() {
        return process + ": open files soft " + format(soft) + ", hard " + format(hard);
    }

    private static String format(long limit) {
        return limit == UNLIMITED ? "unlimited" : Long.toString(limit);
    }
}
