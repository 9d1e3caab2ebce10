package org.testbed.runfolder;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far away the store is: every reply of memcached reaches the servers this much later (± up to
 * {@code jitter}), through a Toxiproxy between the two ({@code --store-latency}). Whole milliseconds,
 * as Toxiproxy's latency toxic takes them. {@code 0ms} still goes through the proxy, so a sweep from
 * 0 ms up changes only the latency; a step without a store latency talks to memcached directly.
 *
 * <p>Written as {@code 10ms}, or {@code 10ms±2ms} with jitter (ASCII {@code 10ms+-2ms} and {@code
 * 10ms~2ms} read the same); in the {@code conditions} field as {@code store10ms} or {@code
 * store10ms~2ms} (file names and URLs are made from that field, so it stays ASCII without {@code +}).
 */
public record StoreLatency(Duration latency, Duration jitter) {
    private static final String PREFIX = "store";
    private static final Pattern FORM = Pattern.compile("(\\d{1,5})ms(?:(?:±|\\+-|~)(\\d{1,5})ms)?");

    public StoreLatency {
        if (latency.isNegative() || jitter.isNegative()) {
            throw new IllegalArgumentException("a store latency is not negative: " + latency + ", jitter " + jitter);
        }
        if (jitter.compareTo(latency) > 0) {
            // Toxiproxy would draw delays below zero and send those replies at once: not the latency asked for.
            throw new IllegalArgumentException("the jitter (" + jitter.toMillis() + " ms) is larger than the latency ("
                    + latency.toMillis() + " ms)");
        }
    }

    public static StoreLatency ofMillis(long latency) {
        return new StoreLatency(Duration.ofMillis(latency), Duration.ZERO);
    }

    /** {@code 10ms}, {@code 10ms±2ms}, {@code 10ms+-2ms} or {@code 10ms~2ms}. */
    public static StoreLatency parse(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("a store latency is whole milliseconds, optionally with a jitter: 10ms,"
                    + " 10ms±2ms or 10ms+-2ms; not '" + text + "'");
        }
        return new StoreLatency(Duration.ofMillis(Long.parseLong(m.group(1))),
                Duration.ofMillis(m.group(2) == null ? 0 : Long.parseLong(m.group(2))));
    }

    /** Whether {@code part} of a conditions field is a store latency ({@code store...}). */
    static boolean isLabel(String part) {
        return part.startsWith(PREFIX) && part.length() > PREFIX.length() && Character.isDigit(part.charAt(PREFIX.length()));
    }

    /** {@code store10ms} or {@code store10ms~2ms} read back. */
    static StoreLatency fromLabel(String part) {
        return parse(part.substring(PREFIX.length()));
    }

    /** The part of the conditions field. */
    public String label() {
        return PREFIX + latency.toMillis() + "ms" + (jitter.isZero() ? "" : "~" + jitter.toMillis() + "ms");
    }

    /** For people: {@code 10 ms} or {@code 10 ± 2 ms}. */
    public String describe() {
        return latency.toMillis() + (jitter.isZero() ? "" : " ± " + jitter.toMillis()) + " ms";
    }

    @Override
    public String toString() {
        return label();
    }
}
