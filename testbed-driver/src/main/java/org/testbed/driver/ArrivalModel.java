package org.testbed.driver;

import java.util.function.LongConsumer;

/**
 * How requests come to the connections of one {@link EventLoop}: the part of the loop that differs
 * between the closed model ({@link ClosedArrivals}) and the open one ({@link OpenArrivals}). Called
 * on the loop's thread only.
 */
interface ArrivalModel {

    /** The window has opened: start sending. */
    void begin(long now);

    /** Called on every turn of the loop: sends whatever is due by {@code now}. */
    void due(long now);

    /** How long the loop may wait before {@link #due} must be called again ({@code Long.MAX_VALUE}: no limit). */
    long nanosUntilDue(long now);

    /** {@code conn} has just connected (its interest ops are cleared). */
    void connected(HttpConnection conn, long now);

    /** {@code conn} is free for another request, and the window is still open. */
    void next(HttpConnection conn, long now);

    /**
     * {@code conn}'s socket is gone (closed by the server, or broken); it is closed already. A model
     * that keeps its connections reconnects after {@code backoffNanos}.
     */
    void lost(HttpConnection conn, long now, long backoffNanos);

    /** Arrivals still waiting for a connection (when the window has closed: never sent). */
    long queued();

    /** Gives each arrival still waiting for a connection (its intended start) to {@code each}; none in a closed model. */
    default void unanswered(LongConsumer each) {
    }
}
