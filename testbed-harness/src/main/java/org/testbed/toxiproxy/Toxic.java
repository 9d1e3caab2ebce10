package org.testbed.toxiproxy;

import java.time.Duration;
import java.util.Map;

/**
 * One toxic of a Toxiproxy proxy, as its API takes it: a {@code type} (latency, timeout, reset_peer,
 * bandwidth, slicer, ...), the {@code stream} it acts on ({@code downstream}: from the upstream
 * server back to the client; {@code upstream}: from the client to the server), the share of
 * connections it touches ({@code toxicity}, 0..1) and the type's numeric {@code attributes}.
 *
 * @param name a proxy holds one toxic of each name; the name removes it again
 */
public record Toxic(String name, String type, String stream, double toxicity, Map<String, Long> attributes) {
    public Toxic {
        if (!stream.equals("downstream") && !stream.equals("upstream")) {
            throw new IllegalArgumentException("stream is downstream or upstream, not '" + stream + "'");
        }
        if (toxicity < 0 || toxicity > 1) {
            throw new IllegalArgumentException("toxicity is between 0 and 1, not " + toxicity);
        }
        attributes = Map.copyOf(attributes);
    }

    /** A toxic on every connection, named after its type and stream (e.g. {@code timeout_downstream}). */
    public static Toxic of(String type, String stream, Map<String, Long> attributes) {
        return new Toxic(type + "_" + stream, type, stream, 1.0, attributes);
    }

    /**
     * Every reply from the store arrives {@code latency} (± up to {@code jitter}) late: on the
     * downstream only, so one request and its reply take {@code latency} more, as a store that far
     * away would. Replies keep their order; pipelined ones are each delayed, not queued behind one another.
     */
    public static Toxic latency(Duration latency, Duration jitter) {
        return of("latency", "downstream", Map.of("latency", latency.toMillis(), "jitter", jitter.toMillis()));
    }

    /**
     * Data stops flowing: nothing is delivered, and after {@code timeout} the connection is closed
     * ({@link Duration#ZERO}: never closed, a hung store until the toxic is removed).
     */
    public static Toxic timeout(Duration timeout) {
        return of("timeout", "downstream", Map.of("timeout", timeout.toMillis()));
    }

    /** Connections are reset (TCP RST) after {@code timeout} ({@link Duration#ZERO}: at once), as by a crashed peer. */
    public static Toxic resetPeer(Duration timeout) {
        return of("reset_peer", "downstream", Map.of("timeout", timeout.toMillis()));
    }
}
