package org.testbed.runfolder.counters;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code perf stat} counted in the server process over one step's window: a value per event
 * it could count, and for every other event the reason it could not (perf missing, not allowed,
 * no hardware counters in this VM). {@code task-clock} is in milliseconds, the rest are counts.
 */
public final class CounterReading {
    private final Map<PerfEvent, Double> values = new EnumMap<>(PerfEvent.class);
    private final Map<PerfEvent, String> unavailable = new EnumMap<>(PerfEvent.class);

    /** Every event unavailable for one reason (perf missing, perf failed to attach). */
    public static CounterReading unavailable(String reason) {
        CounterReading r = new CounterReading();
        for (PerfEvent e : PerfEvent.values()) {
            r.unavailable.put(e, reason);
        }
        return r;
    }

    /**
     * Parses {@code perf stat -x,} output: one line per event, {@code value,unit,event,...}, the
     * value {@code <not supported>} or {@code <not counted>} when there is none; {@code #} lines
     * and blank lines are comments. An event with no line at all is unavailable too.
     */
    public static CounterReading parse(String perfOutput, String notSupportedReason) {
        CounterReading r = new CounterReading();
        for (String line : perfOutput.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length < 3) {
                continue;
            }
            PerfEvent event = PerfEvent.byPerfName(f[2].trim());
            if (event == null) {
                continue;
            }
            String value = f[0].trim();
            if (value.equals("<not supported>")) {
                r.unavailable.put(event, notSupportedReason);
            } else if (value.equals("<not counted>")) {
                r.unavailable.put(event, "not counted (no thread of the server ran, or perf could not schedule the counter)");
            } else {
                try {
                    r.values.put(event, Double.parseDouble(value));
                } catch (NumberFormatException e) {
                    r.unavailable.put(event, "unreadable value '" + value + "' from perf");
                }
            }
        }
        for (PerfEvent e : PerfEvent.values()) {
            if (!r.values.containsKey(e) && !r.unavailable.containsKey(e)) {
                r.unavailable.put(e, "perf printed no figure for it");
            }
        }
        return r;
    }

    /** The event's total over the window, or NaN when it was not counted. */
    public double total(PerfEvent event) {
        Double v = values.get(event);
        return v == null ? Double.NaN : v;
    }

    public boolean has(PerfEvent event) {
        return values.containsKey(event);
    }

    /** The events not counted, grouped by reason: "cycles, instructions: not supported ...; ...". */
    public String unavailableText() {
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        unavailable.forEach((e, reason) -> byReason.computeIfAbsent(reason, k -> new ArrayList<>()).add(e.perfName()));
        List<String> parts = new ArrayList<>();
        byReason.forEach((reason, events) -> parts.add(String.join(" ", events) + ": " + reason));
        return String.join("; ", parts);
    }

    /** The lines for a step's raw file. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (PerfEvent e : PerfEvent.values()) {
            Double v = values.get(e);
            out.append(String.format(Locale.ROOT, "  %-16s %s%n", e.perfName(),
                    v == null ? "n/a (" + unavailable.get(e) + ")" : String.format(Locale.ROOT, "%.1f", v)));
        }
        return out.toString();
    }
}
