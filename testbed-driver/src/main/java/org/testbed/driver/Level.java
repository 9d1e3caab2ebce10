package org.testbed.driver;

import java.util.Locale;

/**
 * One step's load: either a closed model ({@code concurrency} users back to back, no think time,
 * as wrk -c does) or an open model ({@code rate} arrivals per second, whatever the server's speed).
 */
public record Level(int concurrency, double rate) {
    public Level {
        if ((concurrency > 0) == (rate > 0)) {
            throw new IllegalArgumentException("a level is either closed (concurrency > 0) or open (rate > 0)");
        }
    }

    public static Level closed(int concurrency) {
        return new Level(concurrency, 0);
    }

    public static Level open(double rate) {
        return new Level(0, rate);
    }

    public boolean isOpen() {
        return rate > 0;
    }

    /** {@code c=64} or {@code 5000/s}. */
    public String label() {
        return isOpen() ? String.format(Locale.ROOT, "%.0f/s", rate) : "c=" + concurrency;
    }
}
