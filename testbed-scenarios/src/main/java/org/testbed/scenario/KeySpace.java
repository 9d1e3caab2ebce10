package org.testbed.scenario;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.testbed.item.ItemId;

/**
 * Item ids that never collide: between the lanes (users) of one run, between the injector machines
 * of one run, and with earlier runs' leftovers.
 *
 * <p>A key a run writes is {@code RUN.INJECTOR.LANE.KSEQ}: four dot-separated parts whose first two
 * may not contain a dot, so two different (run, injector, lane, kind, seq) tuples always give two
 * different strings. Preloaded keys, shared read-mostly by every lane and injector, are
 * {@code pre.SIZE.INDEX}: three parts, so they can never equal a run key. Every id is within
 * {@link ItemId}'s charset and at most 140 characters long.
 */
public record KeySpace(String runId, String injectorId) {
    /** Run and injector ids: the id charset without the dot, which separates parts. */
    public static final Pattern COMPONENT = Pattern.compile("[A-Za-z0-9_~-]{1,48}");

    public KeySpace {
        requireComponent("runId", runId);
        requireComponent("injectorId", injectorId);
    }

    /** A fresh run id: UTC time to the second plus four random characters, e.g. {@code r20250101T120000-k3x9}. */
    public static String newRunId() {
        String time = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        String random = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36), 36);
        return "r" + time + "-" + "0".repeat(4 - random.length()) + random;
    }

    /** The {@code seq}-th key of kind {@code kind} (a letter: j journey, c churn) in lane {@code lane}. */
    public String key(long lane, char kind, long seq) {
        if (lane < 0 || seq < 0) {
            throw new IllegalArgumentException("lane and seq must be >= 0");
        }
        if (!Character.isLetter(kind) || kind > 'z') {
            throw new IllegalArgumentException("kind must be an ASCII letter: " + kind);
        }
        return runId + '.' + injectorId + '.' + lane + '.' + kind + seq;
    }

    /** The {@code index}-th preloaded key for items with {@code payloadSize}-byte payloads. */
    public static String preloadKey(int payloadSize, int index) {
        if (index < 0 || payloadSize < 0) {
            throw new IllegalArgumentException("index and payloadSize must be >= 0");
        }
        return "pre." + payloadSize + '.' + index;
    }

    private static void requireComponent(String what, String value) {
        if (value == null || !COMPONENT.matcher(value).matches()) {
            throw new InvalidParameterException(what, "'" + value + "'",
                    "1..48 characters of [A-Za-z0-9_~-] (no dot: dots separate the parts of a key)");
        }
    }
}
