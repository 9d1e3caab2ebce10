package org.testbed.runner.step;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.testbed.driver.Level;
import org.testbed.scenario.LevelList;

/** Reads the runner's level options (through the scenario library's {@link LevelList}) and durations. */
public final class Levels {
    private Levels() {
    }

    /** {@code FROM:TO:STEP} (e.g. {@code 50:1100:50}) or a list ({@code 8,64,256}) of users. */
    public static List<Level> concurrency(String text) {
        List<Level> levels = new ArrayList<>();
        for (double v : LevelList.levels("--concurrency", text)) {
            if (v < 1 || v != Math.rint(v) || v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("--concurrency levels must be whole numbers from 1 to " + Integer.MAX_VALUE
                        + ": " + text);
            }
            levels.add(Level.closed((int) v));
        }
        return levels;
    }

    /** {@code FROM:TO:STEP} (e.g. {@code 1000:5000:1000}) or a list of arrival rates per second. */
    public static List<Level> rate(String text) {
        List<Level> levels = new ArrayList<>();
        for (double v : LevelList.levels("--rate", text)) {
            if (!(v > 0)) {
                throw new IllegalArgumentException("--rate levels must be > 0 requests per second: " + text);
            }
            levels.add(Level.open(v));
        }
        return levels;
    }

    /** {@code 10s}, {@code 500ms}, {@code 5m}, {@code 1h}, or a number of seconds. */
    public static Duration duration(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            if (t.endsWith("s")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
            }
            if (t.endsWith("m")) {
                return Duration.ofSeconds(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 60));
            }
            if (t.endsWith("h")) {
                return Duration.ofSeconds(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 3600));
            }
            return Duration.ofMillis(Math.round(Double.parseDouble(t) * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 10s, 500ms, 5m)");
        }
    }
}
