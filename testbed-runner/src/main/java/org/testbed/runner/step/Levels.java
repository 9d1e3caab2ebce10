package org.testbed.runner.step;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.testbed.runner.load.Level;

/** Parses level lists and durations from the command line. */
public final class Levels {
    private Levels() {
    }

    /** {@code FROM:TO:STEP} (e.g. {@code 50:1100:50}) or a list ({@code 8,64,256}) of users. */
    public static List<Level> concurrency(String text) {
        List<Level> levels = new ArrayList<>();
        for (double v : numbers(text, "--concurrency")) {
            if (v < 1 || v != Math.rint(v)) {
                throw new IllegalArgumentException("--concurrency levels must be whole numbers >= 1: " + text);
            }
            levels.add(Level.closed((int) v));
        }
        return levels;
    }

    /** {@code FROM:TO:STEP} (e.g. {@code 1000:5000:1000}) or a list of arrival rates per second. */
    public static List<Level> rate(String text) {
        List<Level> levels = new ArrayList<>();
        for (double v : numbers(text, "--rate")) {
            if (!(v > 0)) {
                throw new IllegalArgumentException("--rate levels must be > 0 requests per second: " + text);
            }
            levels.add(Level.open(v));
        }
        return levels;
    }

    private static List<Double> numbers(String text, String option) {
        String t = text.strip();
        List<Double> values = new ArrayList<>();
        try {
            if (t.contains(":")) {
                String[] p = t.split(":");
                if (p.length != 3) {
                    throw new IllegalArgumentException(option + " '" + text + "' must be FROM:TO:STEP or a comma-separated list");
                }
                double from = Double.parseDouble(p[0]);
                double to = Double.parseDouble(p[1]);
                double step = Double.parseDouble(p[2]);
                if (step <= 0 || to < from) {
                    throw new IllegalArgumentException(option + " '" + text + "': need FROM <= TO and STEP > 0");
                }
                for (double v = from; v <= to + 1e-9; v += step) {
                    values.add(v);
                }
            } else {
                for (String part : t.split(",")) {
                    if (!part.isBlank()) {
                        values.add(Double.parseDouble(part.strip()));
                    }
                }
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " '" + text + "' must be FROM:TO:STEP or a comma-separated list of numbers");
        }
        if (values.isEmpty()) {
            throw new IllegalArgumentException(option + " '" + text + "' names no level");
        }
        return values;
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
