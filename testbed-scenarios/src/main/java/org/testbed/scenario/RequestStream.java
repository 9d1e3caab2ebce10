package org.testbed.scenario;

/**
 * What one user (a lane) sends, one request at a time: a driver loops {@code next()}, sends it,
 * verifies the response ({@link RequestSpec#failure}) and reports back with {@code completed}.
 * Not thread-safe: one lane is driven by one user at a time (see {@link LanePool}).
 *
 * <p>Given the same seed, key space and lane, and the same outcomes, a stream yields the same
 * requests.
 */
public interface RequestStream {
    RequestSpec next();

    /** Tells the stream how {@code spec} (the last {@link #next()}) ended; streams with state react. */
    default void completed(RequestSpec spec, boolean ok) {
    }

    /** A stream that repeats one request (plaintext, json, delay). */
    static RequestStream repeating(RequestSpec spec) {
        return () -> spec;
    }
}
