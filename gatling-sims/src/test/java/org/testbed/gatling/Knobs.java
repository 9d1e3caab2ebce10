package org.testbed.gatling;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every knob of a simulation is a system property with a default ({@code -Dname=value} on the mvn
 * command line; the Gatling plugin passes them to its forked JVM). Reading a knob records its
 * effective value, which is printed at start and written into the summary. Every name read here
 * must be listed in README.md (KnobsDocumentedTest keeps that true).
 */
final class Knobs {
    private final Map<String, String> used = new TreeMap<>();

    String string(String name, String defaultValue) {
        String value = System.getProperty(name);
        String effective = value == null || value.isBlank() ? defaultValue : value.trim();
        used.put(name, effective == null ? "" : effective);
        return effective;
    }

    int integer(String name, int defaultValue) {
        String value = string(name, Integer.toString(defaultValue));
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw bad(name, value, "a whole number");
        }
    }

    long longValue(String name, long defaultValue) {
        String value = string(name, Long.toString(defaultValue));
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw bad(name, value, "a whole number");
        }
    }

    double decimal(String name, double defaultValue) {
        String value = string(name, Double.isNaN(defaultValue) ? "" : format(defaultValue));
        if (value == null || value.isEmpty()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw bad(name, value, "a number");
        }
    }

    /** A duration given in (possibly fractional) seconds. */
    Duration seconds(String name, double defaultSeconds) {
        double s = decimal(name, defaultSeconds);
        if (!(s >= 0)) {
            throw bad(name, String.valueOf(s), "seconds >= 0");
        }
        return Duration.ofNanos(Math.round(s * 1e9));
    }

    /** A duration given in milliseconds. */
    Duration millis(String name, long defaultMillis) {
        long ms = longValue(name, defaultMillis);
        if (ms < 0) {
            throw bad(name, String.valueOf(ms), "milliseconds >= 0");
        }
        return Duration.ofMillis(ms);
    }

    boolean bool(String name, boolean defaultValue) {
        String value = string(name, Boolean.toString(defaultValue)).toLowerCase(Locale.ROOT);
        return switch (value) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw bad(name, value, "true or false");
        };
    }

    /** The knobs read so far and their effective values. */
    Map<String, String> used() {
        return new TreeMap<>(used);
    }

    static String format(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private static IllegalArgumentException bad(String name, String value, String expected) {
        return new IllegalArgumentException("-D" + name + "=" + value + " is not " + expected);
    }
}
