package org.testbed.runfolder.figure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What kind of number a figure is, which says how {@code --assert} writes a bound on it: a time or a
 * size with its unit (held in ms and in bytes), a rate, a whole count, or a plain number.
 */
public enum Quantity {
    /** requests per second, a plain number */
    RATE("req/s", units()),
    /** a time, held in ms; a bound gives its unit */
    TIME("ms", units("us", 0.001, "ms", 1, "s", 1000)),
    /** a size, held in bytes; a bound gives its unit, decimal (kB = 1000 B) or binary (KiB = 1024 B) */
    BYTES("B", units("B", 1, "kB", 1000, "MB", 1e6, "KiB", 1024, "MiB", 1024 * 1024)),
    /** a whole number */
    COUNT("", units()),
    /** a number in the figure's own unit, without one */
    NUMBER("", units());

    private final String held;
    private final Map<String, Double> units;

    Quantity(String held, Map<String, Double> units) {
        this.held = held;
        this.units = units;
    }

    /** Whether a bound must name its unit. */
    public boolean needsUnit() {
        return !units.isEmpty();
    }

    /** The units a bound may be written in, e.g. {@code us, ms or s}. */
    public String unitList() {
        List<String> u = List.copyOf(units.keySet());
        return u.size() < 2 ? String.join("", u) : String.join(", ", u.subList(0, u.size() - 1)) + " or " + u.get(u.size() - 1);
    }

    /**
     * The unit {@code given} names, in its own spelling ({@code kb} is {@code kB}, {@code µs} is
     * {@code us}), if it is one of this quantity's: units are told apart by their letters, not their case.
     */
    public Optional<String> unit(String given) {
        String g = given.replace("µ", "u");
        return units.keySet().stream().filter(u -> u.equalsIgnoreCase(g)).findFirst();
    }

    /** {@code value} written in {@code unit} in the held unit (ms, bytes); a number without a unit as it is. */
    public double toHeld(double value, String unit) {
        return value * units.getOrDefault(unit, 1.0);
    }

    /** {@code value} in the held unit written in {@code unit}. */
    public double fromHeld(double value, String unit) {
        return value / units.getOrDefault(unit, 1.0);
    }

    /** The unit values are held in: {@code ms}, {@code B}; empty for a plain number. */
    public String held() {
        return held;
    }

    private static Map<String, Double> units(Object... pairs) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], ((Number) pairs[i + 1]).doubleValue());
        }
        return m;
    }
}
