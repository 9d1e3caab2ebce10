package org.testbed.driver;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.util.ArrayDeque;
import java.util.function.LongConsumer;

/**
 * Open model ({@link Level#open}): arrivals at a constant rate, each at its intended start time
 * whether or not earlier requests have come back. An arrival takes an idle connection, else opens a
 * new one (up to this loop's share of the connection cap), else waits in a queue for the next free
 * connection. Latency is measured from the intended start, so a slow server shows up in full
 * (corrected for coordinated omission, as wrk2 does). Each arrival is a short-lived user that
 * borrows a lane for its one request; a connection the server closes is dropped, not reopened.
 */
final class OpenArrivals implements ArrivalModel {
    /**
     * Most connections a loop opens at once. Over HTTPS each costs the driver a key exchange: an
     * arrival opening a connection while earlier ones are still handshaking would, against a slow
     * server, spend the loop's CPU starting handshakes and finish none (measured: 500 arrivals/s
     * over TLS on a loaded core completed no handshake in 5 s). Arrivals beyond it wait in the
     * queue for a connection, and their latency still counts from their intended start.
     */
    static final int MAX_ESTABLISHING = 32;
    private final EventLoop loop;
    /** This loop's first arrival, after the window's start (the loops' arrivals interleave). */
    private final double offset;
    private final double interval;
    private final int maxConnections;
    private final ArrayDeque<HttpConnection> idle = new ArrayDeque<>();
    private final LongQueue pending = new LongQueue();
    private double nextArrival;

    /** {@code interval}: nanoseconds between this loop's arrivals; {@code maxConnections}: this loop's share of the cap. */
    OpenArrivals(EventLoop loop, double offset, double interval, int maxConnections) {
        this.loop = loop;
        this.offset = offset;
        this.interval = interval;
        this.maxConnections = maxConnections;
    }

    @Override
    public void begin(long now) {
        nextArrival = loop.arrivalsFrom() + offset;
    }

    @Override
    public void due(long now) {
        LoopConnections connections = loop.connections();
        while (nextArrival <= now && nextArrival < loop.end()) {
            long intended = (long) nextArrival;
            nextArrival += interval;
            HttpConnection conn = idle.pollFirst();
            if (conn != null) {
                loop.send(conn, intended, now);
            } else if (connections.open() < maxConnections && connections.establishing() < MAX_ESTABLISHING) {
                conn = connections.newConnection(null);
                conn.pendingIntended = intended;
                try {
                    connections.connect(conn, false);
                } catch (IOException e) {
                    conn.pendingIntended = -1;
                    loop.error(ErrorKind.CONNECTION, "connect: " + e.getMessage());
                    discard(conn);
                }
            } else {
                pending.add(intended);
            }
        }
    }

    @Override
    public long nanosUntilDue(long now) {
        return (long) nextArrival - now;
    }

    @Override
    public void connected(HttpConnection conn, long now) {
        if (conn.pendingIntended >= 0) {
            long intended = conn.pendingIntended;
            conn.pendingIntended = -1;
            loop.send(conn, intended, now);
        } else {
            loop.free(conn, now);
        }
    }

    @Override
    public void next(HttpConnection conn, long now) {
        if (!pending.isEmpty()) {
            loop.send(conn, pending.poll(), now);
        } else {
            conn.key.interestOps(SelectionKey.OP_READ); // notice a server-side close while idle
            idle.addFirst(conn);
        }
    }

    @Override
    public void lost(HttpConnection conn, long now, long backoffNanos) {
        discard(conn);
    }

    private void discard(HttpConnection conn) {
        loop.connections().discard(conn);
        idle.remove(conn);
    }

    @Override
    public long queued() {
        return pending.size();
    }

    @Override
    public void unanswered(LongConsumer each) {
        pending.forEach(each);
    }
}
