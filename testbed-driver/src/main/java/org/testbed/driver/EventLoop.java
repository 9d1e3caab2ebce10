package org.testbed.driver;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.RequestStream;

/**
 * One load thread: a selector over keep-alive connections, each with one request at a time. It
 * writes requests, reads and verifies responses, and times out requests that take too long; its
 * {@link ArrivalModel} decides when requests go out, and its {@link LoopConnections} opens, closes
 * and reconnects the connections they go out on. Single-threaded: everything here runs on the
 * loop's own thread, except setting up users before the window and reading the results after it.
 */
final class EventLoop implements Runnable {
    /** How often the loop looks for requests and handshakes that have taken too long, and for reconnects due. */
    private static final long CHECK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final StepContext step;
    private final Selector selector;
    private final LoopConnections connections;
    private final ArrivalModel model;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    /** Inflates gzip bodies (with {@code --gzip}); one per loop, reused. */
    private final Gunzip gunzip = new Gunzip();
    final Measurements measured;
    private long start;
    /** When the arrival model begins: the window's start, or earlier by the open model's lead-in. */
    private long arrivalsFrom;
    /** Set by the coordinator to stop early: read on every turn of the loop, so it stops promptly. */
    private volatile long end;

    /**
     * {@code seconds}: the longest the window may last, in whole seconds rounded up; {@code open}:
     * whether arrivals come at a rate (then a request's latency from its write differs from its latency).
     */
    EventLoop(StepContext step, int seconds, boolean open, Function<EventLoop, ArrivalModel> model) throws IOException {
        this.step = step;
        this.measured = new Measurements(seconds, step.operations.size(), open);
        this.selector = Selector.open();
        this.connections = new LoopConnections(step, selector, measured, this::ready);
        this.model = model.apply(this);
    }

    /**
     * A connection of {@link #connections} is ready for HTTP: it goes to the model. (A method, not a
     * lambda on the field: the model is made from this loop, after the connections.)
     */
    private void ready(HttpConnection conn, long now) {
        model.connected(conn, now);
    }

    /** Before the window: connects a user (blocking) who sends its own lane's requests. */
    void connectUser(RequestStream lane) throws IOException {
        connections.connect(connections.newConnection(lane), true);
    }

    /**
     * Before the loop runs: the window it measures, and when its arrivals begin ({@code arrivalsFrom},
     * at or before {@code start}); what is sent for arrivals before the window is not measured.
     */
    void window(long arrivalsFrom, long start, long end) {
        this.arrivalsFrom = arrivalsFrom;
        this.start = start;
        this.end = end;
        measured.windowStart(start);
    }

    /** When the arrival model begins. */
    long arrivalsFrom() {
        return arrivalsFrom;
    }

    /** From another thread: closes the window at {@code end} (now, typically) instead; the loop stops at once. */
    void stopAt(long end) {
        if (end < this.end) {
            this.end = end;
            selector.wakeup();
        }
    }

    long start() {
        return start;
    }

    long end() {
        return end;
    }

    LoopConnections connections() {
        return connections;
    }

    int peakConnections() {
        return connections.peak();
    }

    /** Arrivals still waiting for a connection. */
    long queued() {
        return model.queued();
    }

    @Override
    public void run() {
        try {
            loop();
        } catch (IOException | RuntimeException e) {
            error(ErrorKind.OTHER, "event loop: " + e);
        }
    }

    private void loop() throws IOException {
        while (System.nanoTime() < arrivalsFrom) {
            LockSupport.parkNanos(100_000);
        }
        model.begin(System.nanoTime());
        long nextCheck = System.nanoTime() + CHECK_EVERY_NANOS;
        while (!Thread.currentThread().isInterrupted()) {
            long now = System.nanoTime();
            if (now >= end) {
                break;
            }
            measured.tick(now);
            model.due(now);
            if (now >= nextCheck) {
                housekeeping(now);
                nextCheck = now + CHECK_EVERY_NANOS;
            }
            // Awake at each second of the window too, so that its latencies are handed over at once.
            long wait = Math.min(Math.min(Math.min(end, nextCheck) - now, model.nanosUntilDue(now)),
                    measured.nanosUntilNextSecond(now));
            int ready;
            if (wait >= 1_000_000) {
                ready = selector.select(wait / 1_000_000);
            } else {
                ready = selector.selectNow();
                if (ready == 0 && wait > 0) {
                    LockSupport.parkNanos(Math.min(wait, 100_000));
                }
            }
            if (ready > 0) {
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    handle((HttpConnection) key.attachment(), key);
                }
            }
        }
    }

    private void handle(HttpConnection conn, SelectionKey key) {
        long now = System.nanoTime();
        try {
            if (!key.isValid()) {
                return;
            }
            if (key.isConnectable()) {
                connections.finishConnect(conn, now);
                return;
            }
            if (conn.handshaking) {
                connections.handshake(conn, now);
                return;
            }
            if (key.isWritable()) {
                writeSome(conn);
            }
            if (key.isValid() && key.isReadable()) {
                readSome(conn, now);
            }
        } catch (IOException e) {
            broken(conn, e.getClass().getSimpleName() + ": " + e.getMessage(), ErrorKind.CONNECTION, now);
        } catch (RuntimeException e) {
            broken(conn, e.getClass().getSimpleName() + ": " + e.getMessage(), ErrorKind.OTHER, now);
        }
    }

    /** Sends {@code conn}'s next request, meant to start at {@code startNanos}. */
    void send(HttpConnection conn, long startNanos, long now) {
        RequestStream lane = conn.ownsLane ? conn.lane : step.lanes.borrow();
        conn.lane = lane;
        RequestSpec spec = lane.next();
        conn.spec = spec;
        conn.operation = step.operations.indexOf(spec);
        conn.startNanos = startNanos;
        conn.sentNanos = now;
        conn.busy = true;
        conn.out = conn.encoder.encode(spec, spec.sendIfMatch() ? step.etags.get(lane) : null);
        try {
            writeSome(conn);
        } catch (IOException e) {
            broken(conn, "write: " + e.getMessage(), ErrorKind.CONNECTION, now);
        }
    }

    private void writeSome(HttpConnection conn) throws IOException {
        boolean written = conn.transport.write(conn.channel, conn.out);
        conn.key.interestOps(written ? SelectionKey.OP_READ : SelectionKey.OP_WRITE | SelectionKey.OP_READ);
    }

    private void readSome(HttpConnection conn, long now) throws IOException {
        while (true) {
            int n = conn.transport.read(conn.channel, readBuffer, conn.parser);
            if (n < 0) {
                closedByServer(conn, now);
                return;
            }
            if (n == 0) {
                return;
            }
            if (!conn.busy) {
                if (conn.parser.hasPartialData()) {
                    throw new IOException("unexpected bytes from the server while idle");
                }
                continue; // TLS messages of its own (a session ticket), no HTTP bytes
            }
            if (conn.parser.complete()) {
                completed(conn, now);
                return;
            }
        }
    }

    private void completed(HttpConnection conn, long now) {
        HttpResponseParser parser = conn.parser;
        RequestSpec spec = conn.spec;
        byte[] body = parser.body();
        String failure = null;
        if (step.gzip && isGzip(parser.header("Content-Encoding"))) {
            try {
                body = gunzip.inflate(body);
                if (now >= start && now < end) {
                    measured.compressed();
                }
            } catch (IOException e) {
                failure = "the gzip body does not inflate: " + e.getMessage();
            }
        }
        if (failure == null) {
            failure = spec.failure(parser.status(), parser::header, body);
        }
        boolean ok = failure == null;
        RequestStream lane = conn.lane;
        if (ok && spec.captureEtag()) {
            String etag = parser.header("ETag");
            if (etag != null) {
                step.etags.put(lane, etag);
            }
        }
        lane.completed(spec, ok);
        if (!conn.ownsLane) {
            step.lanes.release(lane);
            conn.lane = null;
        }
        if (now >= start && now < end) {
            measured.request(conn.startNanos, conn.sentNanos, now, conn.operation);
            measured.exchanged(conn.out.limit(), parser.messageLength());
            if (!ok) {
                ErrorKind kind = parser.status() != spec.expectedStatus() ? ErrorKind.STATUS : ErrorKind.WRONG_ANSWER;
                measured.error(kind, spec.name() + ": " + failure, conn.operation, now);
            }
        }
        conn.busy = false;
        boolean close = parser.connectionClose();
        parser.reset();
        if (close) {
            connections.close(conn);
            model.lost(conn, now, 0);
            return;
        }
        free(conn, now);
    }

    private static boolean isGzip(String contentEncoding) {
        return contentEncoding != null && contentEncoding.equalsIgnoreCase("gzip");
    }

    /** {@code conn} has no request in flight: the model gives it the next one, unless the window has closed. */
    void free(HttpConnection conn, long now) {
        if (now >= end) {
            conn.key.interestOps(0);
            return;
        }
        model.next(conn, now);
    }

    /**
     * The server closed {@code conn}. With a request in flight that request failed; while idle it is
     * no error, just a keep-alive connection the server let go of.
     */
    private void closedByServer(HttpConnection conn, long now) {
        if (conn.busy) {
            broken(conn, "connection closed by the server", ErrorKind.CONNECTION, now);
        } else {
            dropped(conn, now);
        }
    }

    /** {@code conn} failed ({@code why}, a failure of {@code kind}): an error in the window, and the connection is dropped. */
    private void broken(HttpConnection conn, String why, ErrorKind kind, long now) {
        if (now < end && now >= start) {
            if (conn.busy) {
                measured.request(conn.startNanos, conn.sentNanos, now, conn.operation);
                measured.error(kind, (conn.spec != null ? conn.spec.name() + ": " : "") + why, conn.operation, now);
            } else {
                error(kind, why);
            }
        }
        dropped(conn, now);
    }

    /** Closes {@code conn}, failing its request in flight if any, and tells the model it is gone. */
    private void dropped(HttpConnection conn, long now) {
        if (conn.busy && conn.lane != null) {
            conn.lane.completed(conn.spec, false);
            if (!conn.ownsLane) {
                step.lanes.release(conn.lane);
                conn.lane = null;
            }
        }
        conn.busy = false;
        connections.close(conn);
        model.lost(conn, now, LoopConnections.RECONNECT_BACKOFF_NANOS);
    }

    /** Every {@link #CHECK_EVERY_NANOS}: reconnects what is due, and fails what has waited too long. */
    private void housekeeping(long now) {
        connections.reconnectDue(now);
        // A copy: failing a connection may make the model discard it.
        for (HttpConnection conn : new ArrayList<>(connections.all())) {
            if (conn.busy && now - conn.startNanos > step.timeoutNanos && conn.channel != null) {
                broken(conn, "no response within " + step.timeoutNanos / 1_000_000 + " ms", ErrorKind.TIMEOUT, now);
            } else if (conn.handshaking && now - conn.connectNanos > step.timeoutNanos && conn.channel != null) {
                conn.handshaking = false;
                broken(conn, "no TLS handshake within " + step.timeoutNanos / 1_000_000 + " ms", ErrorKind.TIMEOUT, now);
            }
        }
    }

    void error(ErrorKind kind, String reason) {
        measured.error(kind, reason);
    }

    /**
     * After the loop: the window's arrivals still without an answer (in flight, connecting, or queued
     * in the model) that have waited longer than its slowest answer are counted in the latency at
     * their wait so far ({@link Measurements#unanswered}); one in flight also in its operation's, the
     * others had no request yet.
     */
    void censorUnanswered() {
        long longest = measured.longestAnswerNanos();
        for (HttpConnection conn : connections.all()) {
            if (conn.busy) {
                measured.unanswered(conn.startNanos, end, longest, conn.operation);
            } else if (conn.pendingIntended >= 0) {
                measured.unanswered(conn.pendingIntended, end, longest, -1);
            }
        }
        model.unanswered(intended -> measured.unanswered(intended, end, longest, -1));
    }

    long inFlightAtEnd() {
        long n = 0;
        for (HttpConnection conn : connections.all()) {
            if (conn.busy) {
                n++;
            }
        }
        return n;
    }

    /** After the loop has stopped: closes its connections and its selector. */
    void closeAll() {
        connections.closeAll();
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
