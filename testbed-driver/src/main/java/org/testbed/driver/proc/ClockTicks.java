package org.testbed.driver.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The kernel's {@code USER_HZ}: how many clock ticks {@code /proc/PID/stat} counts per second.
 * Read once from {@code getconf CLK_TCK}; 100 (the value on every mainstream Linux) if that fails.
 */
public final class ClockTicks {
    public static final long FALLBACK = 100;
    private static volatile long perSecond;

    private ClockTicks() {
    }

    public static long perSecond() {
        long value = perSecond;
        if (value == 0) {
            value = query();
            perSecond = value;
        }
        return value;
    }

    /** Ticks to milliseconds. */
    public static double toMillis(long ticks) {
        return ticks * 1000.0 / perSecond();
    }

    private static long query() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (getconf.waitFor(5, TimeUnit.SECONDS) && getconf.exitValue() == 0) {
                long value = Long.parseLong(out);
                if (value > 0) {
                    return value;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall through
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return FALLBACK;
    }
}
