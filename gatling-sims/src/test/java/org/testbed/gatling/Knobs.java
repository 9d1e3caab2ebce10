package org.testbed.gatling;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.testbed.scenario.InvalidParameterException;

/**
 * Every knob of a simulation is a system property with a default ({@code -Dname=value} on the mvn
 * command line; the Gatling plugin passes them to its forked JVM). Reading a knob records its
 * effective value, which is printed at start and written into the summary. Every name read here
 * must be listed in README.md (KnobsDocumentedTest keeps that true).
 *
 * <p>A value a simulation cannot run with is refused here, when it is read, with one line naming
 * the knob, its value and what is allowed: {@code -Dusers=20 must be at least -Dfrom (50)}. The
 * rules that belong to the scenario library (load shapes, workloads) stay there: {@link #build}
 * and {@link #parse} translate the parameter names of its {@link InvalidParameterException} into
 * the knobs they came from. In a simulation ({@link #forSimulation}) the line goes to standard
 * error and the JVM exits with status 1 (Gatling's "invalid arguments"), so the build fails with no
 * stack trace; otherwise a {@link BadKnobException} carries it.
 */
final class Knobs {
    /** The longest time a duration knob may give: 30 days. */
    static final long MAX_SECONDS = 30L * 24 * 3600;

    private final Function<String, String> source;
    private final String simulation;
    private final Map<String, String> used = new TreeMap<>();

    /** Knobs read from {@code properties}; a bad one throws {@link BadKnobException}. */
    Knobs(Properties properties) {
        this(properties::getProperty, null);
    }

    private Knobs(Function<String, String> source, String simulation) {
        this.source = source;
        this.simulation = simulation;
    }

    /** The knobs of a running simulation: the system properties; a bad one ends the JVM with one line. */
    static Knobs forSimulation(String simulation) {
        return new Knobs(System::getProperty, simulation);
    }

    /** A knob's value is not allowed: the one line that says so. */
    static final class BadKnobException extends IllegalArgumentException {
        BadKnobException(String message) {
            super(message);
        }
    }

    String string(String name, String defaultValue) {
        String value = source.apply(name);
        String effective = value == null || value.isBlank() ? defaultValue : value.trim();
        used.put(name, effective == null ? "" : effective);
        return effective;
    }

    int integer(String name, int defaultValue) {
        return (int) whole(name, defaultValue, Integer::parseInt);
    }

    long longValue(String name, long defaultValue) {
        return whole(name, defaultValue, Long::parseLong);
    }

    /** A whole number in the range {@code parser} accepts (an int's or a long's). */
    private long whole(String name, long defaultValue, ToLongFunction<String> parser) {
        String value = string(name, Long.toString(defaultValue));
        try {
            return parser.applyAsLong(value);
        } catch (NumberFormatException e) {
            throw refuse(name, "a whole number");
        }
    }

    /** A number; NaN when the knob is not set and its default is NaN (an optional knob). */
    double decimal(String name, double defaultValue) {
        String value = string(name, Double.isNaN(defaultValue) ? "" : format(defaultValue));
        if (value == null || value.isEmpty()) {
            return Double.NaN;
        }
        try {
            double d = Double.parseDouble(value);
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw refuse(name, "a number");
    }

    /** A duration given in (possibly fractional) seconds. */
    Duration seconds(String name, double defaultSeconds) {
        double s = decimal(name, defaultSeconds);
        require(name, s >= 0 && s <= MAX_SECONDS, "seconds from 0 to " + MAX_SECONDS + " (30 days)");
        return Duration.ofNanos(Math.round(s * 1e9));
    }

    /** A duration given in milliseconds. */
    Duration millis(String name, long defaultMillis) {
        long ms = longValue(name, defaultMillis);
        require(name, ms >= 0 && ms <= MAX_SECONDS * 1000, "milliseconds from 0 to " + MAX_SECONDS * 1000 + " (30 days)");
        return Duration.ofMillis(ms);
    }

    boolean bool(String name, boolean defaultValue) {
        String value = string(name, Boolean.toString(defaultValue)).toLowerCase(Locale.ROOT);
        return switch (value) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw refuse(name, "true or false");
        };
    }

    /** The base URL of a server: {@code http(s)://HOST:PORT}. */
    String url(String name, String defaultValue) {
        String value = string(name, defaultValue);
        try {
            URI uri = new URI(value);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return value;
            }
        } catch (URISyntaxException e) {
            // said below
        }
        throw refuse(name, "http(s)://HOST:PORT, e.g. http://127.0.0.1:8080");
    }

    /** Refuses the knob {@code name}, already read, unless {@code ok}; {@code allowed} says what it must be. */
    void require(String name, boolean ok, String allowed) {
        if (!ok) {
            throw refuse(name, allowed);
        }
    }

    /** The knob's text parsed by the scenario library, which decides what is allowed. */
    <T> T parse(String name, String defaultValue, Function<String, T> parser) {
        String value = string(name, defaultValue);
        try {
            return parser.apply(value);
        } catch (InvalidParameterException e) {
            throw refuse(name, e.allowed((parameter, v) -> parameter + " (" + v + ")"));
        }
    }

    /**
     * Makes a load shape or workload from knobs already read; a parameter the scenario library
     * refuses is reported as the knob it came from. {@code parametersAndKnobs}: the library's
     * parameter name, then the knob's, for every parameter whose knob has another name or that
     * a rule may refer to.
     */
    <T> T build(Supplier<T> build, String... parametersAndKnobs) {
        Map<String, String> knobOf = new HashMap<>();
        for (int i = 0; i + 1 < parametersAndKnobs.length; i += 2) {
            knobOf.put(parametersAndKnobs[i], parametersAndKnobs[i + 1]);
        }
        try {
            return build.get();
        } catch (InvalidParameterException e) {
            String knob = knobOf.get(e.parameter());
            String allowed = e.allowed((parameter, value) -> knobOf.containsKey(parameter)
                    ? "-D" + knobOf.get(parameter) + " (" + used.getOrDefault(knobOf.get(parameter), value) + ")"
                    : parameter + " (" + value + ")");
            if (knob == null) {
                throw fail(e.parameter() + " " + e.value() + " must be " + allowed + " (knobs " + used + ")");
            }
            throw refuse(knob, allowed);
        }
    }

    /** The knobs read so far and their effective values. */
    Map<String, String> used() {
        return new TreeMap<>(used);
    }

    static String format(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private BadKnobException refuse(String name, String allowed) {
        return fail("-D" + name + "=" + used.getOrDefault(name, "") + " must be " + allowed);
    }

    private BadKnobException fail(String message) {
        BadKnobException e = new BadKnobException(message);
        if (simulation != null) {
            System.err.println(simulation + ": " + message);
            System.err.flush();
            System.exit(1);
        }
        return e;
    }
}
