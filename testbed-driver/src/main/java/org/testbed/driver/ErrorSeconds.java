package org.testbed.driver;

import java.util.Arrays;

/**
 * A window's errors by kind ({@link ErrorKind}) and by second, counted in the second their request
 * is counted in ({@link LoadResult.Throughput#perSecond()}): second {@code i} holds those of
 * [start + i s, start + (i + 1) s), the last one also any later (a response that raced the end).
 */
public final class ErrorSeconds {
    /** A driver that does not tell its errors apart by second (wrk, JMeter). */
    public static final ErrorSeconds NONE = new ErrorSeconds(new long[ErrorKind.values().length][0]);

    private final long[][] counts;

    /** {@code counts[kind.ordinal()][second]}. */
    ErrorSeconds(long[][] counts) {
        this.counts = new long[counts.length][];
        for (int k = 0; k < counts.length; k++) {
            this.counts[k] = counts[k].clone();
        }
    }

    /** How many seconds it counts. */
    public int seconds() {
        return counts[0].length;
    }

    /** Errors of {@code kind} in second {@code second}; 0 beyond the window. */
    public long count(ErrorKind kind, int second) {
        long[] c = counts[kind.ordinal()];
        return second >= 0 && second < c.length ? c[second] : 0;
    }

    /** Errors of {@code kind} in seconds {@code from} (inclusive) to {@code to} (exclusive). */
    public long count(ErrorKind kind, int from, int to) {
        long n = 0;
        for (int s = Math.max(0, from); s < Math.min(to, seconds()); s++) {
            n += count(kind, s);
        }
        return n;
    }

    /** Errors of {@code kind} over the window. */
    public long total(ErrorKind kind) {
        return Arrays.stream(counts[kind.ordinal()]).sum();
    }

    /** The counts in {@code seconds} seconds: any later go to the last, as the per-second requests do. */
    ErrorSeconds fold(int seconds) {
        int n = Math.max(1, seconds);
        long[][] folded = new long[counts.length][n];
        for (int k = 0; k < counts.length; k++) {
            for (int s = 0; s < counts[k].length; s++) {
                folded[k][Math.min(s, n - 1)] += counts[k][s];
            }
        }
        return new ErrorSeconds(folded);
    }

    /** For a test: {@code counts[kind.ordinal()][second]}. */
    public static ErrorSeconds of(long[][] counts) {
        if (counts.length != ErrorKind.values().length) {
            throw new IllegalArgumentException("one row of counts per error kind");
        }
        return new ErrorSeconds(counts);
    }
}
