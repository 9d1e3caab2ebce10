package org.testbed.driver;

/**
 * Closed model ({@link Level#closed}): each connection is one user, sending its lane's next request
 * as soon as the previous response is in. Latency is measured from the moment the request is
 * written, like wrk: under overload it hides queueing (coordinated omission), which is what a
 * closed model means. A user whose connection is lost reconnects and carries on.
 */
final class ClosedArrivals implements ArrivalModel {
    private final EventLoop loop;

    ClosedArrivals(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public void begin(long now) {
        for (HttpConnection conn : loop.connections().all()) {
            if (conn.channel != null && conn.channel.isConnected()) {
                loop.send(conn, now, now);
            }
        }
    }

    @Override
    public void due(long now) {
        // users send when their previous response is in, never on a clock
    }

    @Override
    public long nanosUntilDue(long now) {
        return Long.MAX_VALUE;
    }

    @Override
    public void connected(HttpConnection conn, long now) {
        if (now >= loop.start() && now < loop.end()) {
            loop.send(conn, now, now);
        }
    }

    @Override
    public void next(HttpConnection conn, long now) {
        loop.send(conn, now, now);
    }

    @Override
    public void lost(HttpConnection conn, long now, long backoffNanos) {
        loop.connections().reconnectLater(conn, now, backoffNanos);
    }

    @Override
    public long queued() {
        return 0;
    }
}
