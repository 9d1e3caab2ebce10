package org.testbed.driver;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ObjLongConsumer;
import javax.net.ssl.SSLException;
import org.testbed.scenario.RequestStream;

/**
 * The connections of one {@link EventLoop} and how they come and go: opened blocking before the
 * window (a closed model's users) or without blocking during it (arrivals, reconnects), taken
 * through their TLS handshake when the target is HTTPS, closed, and reopened after a back-off.
 * It counts the connections open, those still being established and the most open at once.
 *
 * <p>Kept apart from the loop because none of this is about requests: once a connection is ready
 * for HTTP it goes to the arrival model ({@code ready}), and the loop's request and response code
 * only ever sees ready connections. Runs on the loop's thread, except connecting users before the
 * loop starts and closing everything after it has stopped.
 */
final class LoopConnections {
    /** How long a lost connection waits before it is reopened, and a failed reconnect before its next try. */
    static final long RECONNECT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final StepContext step;
    private final Selector selector;
    private final Measurements measured;
    /** Given each connection once it is ready for HTTP (TCP connected, handshake done): the loop's arrival model. */
    private final ObjLongConsumer<HttpConnection> ready;
    private final List<HttpConnection> all = new ArrayList<>();
    private final ArrayDeque<HttpConnection> reconnect = new ArrayDeque<>();
    private int open;
    /** Connections opened without blocking that are not ready for HTTP yet (TCP connect, TLS handshake). */
    private int establishing;
    private int peak;

    LoopConnections(StepContext step, Selector selector, Measurements measured, ObjLongConsumer<HttpConnection> ready) {
        this.step = step;
        this.selector = selector;
        this.measured = measured;
        this.ready = ready;
    }

    /** Every connection of the loop, open or not (reconnecting, or not connected yet). */
    List<HttpConnection> all() {
        return all;
    }

    int open() {
        return open;
    }

    /** Connections being opened without blocking: connecting, or making their TLS handshake. */
    int establishing() {
        return establishing;
    }

    /** The most connections open at once. */
    int peak() {
        return peak;
    }

    /** A new connection of this loop, not connected yet. {@code lane}: the user's own, or null to borrow one per request. */
    HttpConnection newConnection(RequestStream lane) {
        HttpConnection conn = new HttpConnection(lane, step.fixedHeaders);
        all.add(conn);
        return conn;
    }

    /**
     * Opens {@code conn}'s socket. {@code blocking}: connects (and handshakes) before returning, for
     * a user set up before the window; otherwise starts the connect and lets the loop's selector
     * finish it ({@link #finishConnect}), and the connection is handed over when ready.
     */
    void connect(HttpConnection conn, boolean blocking) throws IOException {
        SocketChannel channel = SocketChannel.open();
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        conn.channel = channel;
        conn.parser.reset();
        conn.busy = false;
        conn.transport = step.target.tls() ? new TlsTransport(TlsEngines.clientEngine(step.target)) : PlainTransport.INSTANCE;
        conn.connectNanos = System.nanoTime();
        if (blocking) {
            channel.connect(step.target.address());
            channel.configureBlocking(false);
            conn.key = channel.register(selector, 0, conn);
            if (conn.transport.handshakes()) {
                handshakeBeforeTheLoop(conn);
            }
        } else {
            channel.configureBlocking(false);
            conn.establishing = true;
            establishing++;
            boolean connected = channel.connect(step.target.address());
            conn.key = channel.register(selector, connected ? 0 : SelectionKey.OP_CONNECT, conn);
            if (connected) {
                connected(conn, System.nanoTime());
            }
        }
        open++;
        peak = Math.max(peak, open);
    }

    /**
     * Makes {@code conn}'s handshake now, on the caller's thread before the loop runs, within the
     * request timeout: a server that does not answer TLS must not hang the step.
     */
    private void handshakeBeforeTheLoop(HttpConnection conn) throws IOException {
        long deadline = System.nanoTime() + step.timeoutNanos;
        while (!conn.transport.handshake(conn.channel)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SSLException("no TLS handshake within " + step.timeoutNanos / 1_000_000 + " ms from "
                        + step.target.authority() + " (is it serving HTTPS?)");
            }
            conn.key.interestOps(conn.transport.wantsWrite() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            selector.select(Math.max(1, left / 1_000_000));
            selector.selectedKeys().clear();
        }
        conn.key.interestOps(0);
        measured.handshake();
    }

    /** The selector says {@code conn}'s connect has progressed: completes it, if it is done. */
    void finishConnect(HttpConnection conn, long now) throws IOException {
        if (conn.channel.finishConnect()) {
            connected(conn, now);
        }
    }

    /** The TCP connection is up: handshake first when the transport has one, then it is ready. */
    private void connected(HttpConnection conn, long now) throws IOException {
        conn.handshaking = conn.transport.handshakes();
        handshake(conn, now);
    }

    /** Advances {@code conn}'s handshake, if it is making one; once done the connection is handed over. */
    void handshake(HttpConnection conn, long now) throws IOException {
        if (conn.handshaking) {
            if (!conn.transport.handshake(conn.channel)) {
                conn.key.interestOps(conn.transport.wantsWrite() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
                return;
            }
            conn.handshaking = false;
            measured.handshake();
        }
        established(conn);
        conn.key.interestOps(0);
        ready.accept(conn, now);
    }

    /** Reconnects {@code conn} after {@code backoff} (at once when 0). */
    void reconnectLater(HttpConnection conn, long now, long backoff) {
        conn.reconnectAt = now + backoff;
        reconnect.add(conn);
        if (backoff == 0) {
            reconnectDue(now);
        }
    }

    /** Reconnects the connections whose back-off is over; one that fails to connect waits another back-off. */
    void reconnectDue(long now) {
        int n = reconnect.size();
        for (int i = 0; i < n; i++) {
            HttpConnection conn = reconnect.pollFirst();
            if (conn.reconnectAt > now) {
                reconnect.addLast(conn);
                continue;
            }
            try {
                connect(conn, false);
            } catch (IOException e) {
                measured.error(ErrorKind.CONNECTION, "connect: " + e.getMessage());
                conn.reconnectAt = now + RECONNECT_BACKOFF_NANOS;
                reconnect.addLast(conn);
            }
        }
    }

    /** Forgets a connection for good (it is closed already, or was never connected). */
    void discard(HttpConnection conn) {
        all.remove(conn);
    }

    private void established(HttpConnection conn) {
        if (conn.establishing) {
            conn.establishing = false;
            establishing--;
        }
    }

    /** Closes {@code conn}'s socket, if it has one; the connection may be connected again. */
    void close(HttpConnection conn) {
        established(conn);
        if (conn.channel != null) {
            try {
                conn.channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            conn.channel = null;
            open--;
        }
        conn.parser.reset();
    }

    /** After the loop has stopped: closes every socket. */
    void closeAll() {
        for (HttpConnection conn : all) {
            if (conn.channel != null) {
                try {
                    conn.channel.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
                conn.channel = null;
            }
        }
    }
}
