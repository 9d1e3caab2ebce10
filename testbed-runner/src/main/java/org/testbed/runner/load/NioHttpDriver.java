package org.testbed.runner.load;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.testbed.runner.proc.ClockTicks;
import org.testbed.runner.proc.ProcStat;
import org.testbed.scenario.LanePool;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.RequestStream;
import org.testbed.scenario.Workload;

/**
 * The runner's own load driver: a raw HTTP/1.1 client on NIO selectors, one event loop per load
 * CPU, keep-alive connections, latencies in an HdrHistogram (microseconds, 3 significant digits).
 * Every response is verified with the scenario library's checks, as every driver must.
 *
 * <ul>
 *   <li>Closed model ({@link Level#closed}): {@code concurrency} connections, each one user sending
 *       its lane's next request as soon as the previous response is in. Latency is measured from
 *       the moment the request is written, like wrk: under overload it hides queueing (coordinated
 *       omission), which is what a closed model means.</li>
 *   <li>Open model ({@link Level#open}): arrivals at a constant rate, each at its intended start
 *       time whether or not earlier requests have come back. An arrival takes an idle connection,
 *       else opens a new one (up to {@code maxConnections}), else waits in a queue. Latency is
 *       measured from the intended start, so a slow server shows up in full (corrected for
 *       coordinated omission, as wrk2 does).</li>
 * </ul>
 *
 * Counted: responses that arrive inside the window. Requests still in flight when it ends are
 * abandoned (reported in the raw output), not counted.
 */
public final class NioHttpDriver implements LoadDriver {
    public static final String NAME = "testbed-nio";
    private static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);
    private static final long RECONNECT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long CHECK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Duration requestTimeout;
    private final int maxConnections;

    public NioHttpDriver(Duration requestTimeout, int maxConnections) {
        this.requestTimeout = requestTimeout;
        this.maxConnections = maxConnections;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(Workload workload, Level level) {
        return true;
    }

    @Override
    public LoadResult run(Target target, Workload workload, Level level, Duration duration, int loadCpus)
            throws IOException, InterruptedException {
        int threads = Math.max(1, level.isOpen() ? loadCpus : Math.min(loadCpus, level.concurrency()));
        Shared shared = new Shared(target, workload, requestTimeout.toNanos(),
                Math.max(threads, maxConnections));
        List<Loop> loops = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            loops.add(new Loop(shared, i, (shared.maxConnections + threads - 1) / threads));
        }
        try {
            if (!level.isOpen()) {
                // Connect every user before the window opens, so the window measures requests only.
                for (int c = 0; c < level.concurrency(); c++) {
                    loops.get(c % threads).addUser(workload.stream(c));
                }
            }
            ProcStat cpuBefore = ProcStat.self();
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
            long end = start + duration.toNanos();
            List<Thread> running = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Loop loop = loops.get(i);
                if (level.isOpen()) {
                    double interval = 1e9 * threads / level.rate();
                    loop.openModel(start + interval * i / threads, interval);
                }
                loop.window(start, end);
                Thread thread = new Thread(loop, "load-" + i);
                thread.setDaemon(true);
                thread.start();
                running.add(thread);
            }
            for (Thread thread : running) {
                thread.join(duration.toMillis() + 30_000);
                if (thread.isAlive()) {
                    thread.interrupt();
                    throw new IOException("load thread " + thread.getName() + " did not finish in time");
                }
            }
            ProcStat cpuAfter = ProcStat.self();
            return summarize(loops, duration, level, ClockTicks.toMillis(cpuAfter.minus(cpuBefore).ticks()), threads);
        } finally {
            for (Loop loop : loops) {
                loop.closeAll();
            }
        }
    }

    private LoadResult summarize(List<Loop> loops, Duration duration, Level level, double cpuMs, int threads) {
        Histogram all = new Histogram(HIGHEST_MICROS, 3);
        long requests = 0;
        long errors = 0;
        long abandoned = 0;
        long queued = 0;
        int peak = 0;
        Map<String, Long> failures = new LinkedHashMap<>();
        for (Loop loop : loops) {
            all.add(loop.histogram);
            requests += loop.requests;
            errors += loop.errors;
            abandoned += loop.inFlightAtEnd();
            queued += loop.pending.size();
            peak += loop.peakConnections;
            loop.failures.forEach((k, v) -> failures.merge(k, v, Long::sum));
        }
        double seconds = duration.toNanos() / 1e9;
        Latency latency = Latency.ofMicros(all);
        StringBuilder raw = new StringBuilder();
        raw.append(String.format(Locale.ROOT, "driver %s, %s, %d event loop(s), window %.3f s%n", NAME,
                level.isOpen() ? "open model at " + level.label() + " (latency from intended start)"
                        : "closed model with " + level.concurrency() + " connections",
                threads, seconds));
        raw.append(String.format(Locale.ROOT, "requests=%d errors=%d rps=%.1f driver_cpu_ms=%.0f peak_connections=%d"
                        + " in_flight_at_end=%d queued_at_end=%d%n",
                requests, errors, requests / seconds, cpuMs, peak, abandoned, queued));
        raw.append(String.format(Locale.ROOT, "latency ms: p50=%.3f p90=%.3f p99=%.3f p99.9=%.3f max=%.3f%n",
                latency.p50(), latency.p90(), latency.p99(), latency.p999(), latency.max()));
        failures.forEach((reason, count) -> raw.append("failure x").append(count).append(": ").append(reason).append('\n'));
        raw.append("\nHdrHistogram percentile distribution (values in microseconds):\n");
        java.io.ByteArrayOutputStream hgrm = new java.io.ByteArrayOutputStream();
        all.outputPercentileDistribution(new java.io.PrintStream(hgrm, true, StandardCharsets.UTF_8), 5, 1.0);
        raw.append(hgrm.toString(StandardCharsets.UTF_8));
        return new LoadResult(NAME, requests, errors, seconds, latency, cpuMs, peak, raw.toString());
    }

    /** What the loops of one step share. */
    private static final class Shared {
        final Target target;
        final Workload workload;
        final LanePool lanes;
        final Map<RequestStream, String> etags = new ConcurrentHashMap<>();
        final long timeoutNanos;
        final int maxConnections;
        final byte[] hostHeader;

        Shared(Target target, Workload workload, long timeoutNanos, int maxConnections) {
            this.target = target;
            this.workload = workload;
            this.lanes = new LanePool(workload);
            this.timeoutNanos = timeoutNanos;
            this.maxConnections = maxConnections;
            this.hostHeader = ("Host: " + target.authority() + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        }
    }

    /** One connection: one request at a time. */
    private static final class Conn {
        SocketChannel channel;
        SelectionKey key;
        final HttpResponseParser parser = new HttpResponseParser();
        /** Closed model: the user's own lane; open model: the lane borrowed for the current request. */
        RequestStream lane;
        final boolean ownsLane;
        RequestSpec spec;
        long startNanos;
        boolean busy;
        ByteBuffer out;
        RequestSpec cachedSpec;
        byte[] cachedBytes;
        int cachedLength;
        long reconnectAt;
        /** Open model: a request to send as soon as the connection is established (intended start). */
        long pendingIntended = -1;

        Conn(RequestStream lane) {
            this.lane = lane;
            this.ownsLane = lane != null;
        }
    }

    private static final class Loop implements Runnable {
        final Shared shared;
        final int index;
        final Selector selector;
        final List<Conn> conns = new ArrayList<>();
        final ArrayDeque<Conn> idle = new ArrayDeque<>();
        final ArrayDeque<Conn> reconnect = new ArrayDeque<>();
        final LongQueue pending = new LongQueue();
        final Histogram histogram = new Histogram(HIGHEST_MICROS, 3);
        final Map<String, Long> failures = new LinkedHashMap<>();
        final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
        long requests;
        long errors;
        int open;
        int peakConnections;
        long start;
        long end;
        boolean openModel;
        double nextArrival;
        double interval;
        final int maxConnections;

        Loop(Shared shared, int index, int maxConnections) throws IOException {
            this.shared = shared;
            this.index = index;
            this.maxConnections = maxConnections;
            this.selector = Selector.open();
        }

        void addUser(RequestStream lane) throws IOException {
            Conn conn = new Conn(lane);
            conns.add(conn);
            connect(conn, true);
        }

        void openModel(double firstArrival, double interval) {
            this.openModel = true;
            this.nextArrival = firstArrival;
            this.interval = interval;
        }

        void window(long start, long end) {
            this.start = start;
            this.end = end;
        }

        @Override
        public void run() {
            try {
                loop();
            } catch (IOException | RuntimeException e) {
                fail("event loop: " + e);
            }
        }

        private void loop() throws IOException {
            while (System.nanoTime() < start) {
                LockSupport.parkNanos(100_000);
            }
            if (!openModel) {
                long now = System.nanoTime();
                for (Conn conn : conns) {
                    if (conn.channel != null && conn.channel.isConnected()) {
                        send(conn, now, now);
                    }
                }
            }
            long nextCheck = System.nanoTime() + CHECK_EVERY_NANOS;
            while (!Thread.currentThread().isInterrupted()) {
                long now = System.nanoTime();
                if (now >= end) {
                    break;
                }
                if (openModel) {
                    arrivals(now);
                }
                if (now >= nextCheck) {
                    housekeeping(now);
                    nextCheck = now + CHECK_EVERY_NANOS;
                }
                long wait = Math.min(end, nextCheck) - now;
                if (openModel) {
                    wait = Math.min(wait, (long) nextArrival - now);
                }
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
                        handle((Conn) key.attachment(), key);
                    }
                }
            }
        }

        private void arrivals(long now) {
            while (nextArrival <= now && nextArrival < end) {
                long intended = (long) nextArrival;
                nextArrival += interval;
                Conn conn = idle.pollFirst();
                if (conn != null) {
                    send(conn, intended, now);
                } else if (open < maxConnections) {
                    conn = new Conn(null);
                    conns.add(conn);
                    conn.pendingIntended = intended;
                    try {
                        connect(conn, false);
                    } catch (IOException e) {
                        conn.pendingIntended = -1;
                        error("connect: " + e.getMessage());
                        discard(conn);
                    }
                } else {
                    pending.add(intended);
                }
            }
        }

        private void connect(Conn conn, boolean blocking) throws IOException {
            SocketChannel channel = SocketChannel.open();
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            conn.channel = channel;
            conn.parser.reset();
            conn.busy = false;
            if (blocking) {
                channel.connect(shared.target.address());
                channel.configureBlocking(false);
                conn.key = channel.register(selector, 0, conn);
            } else {
                channel.configureBlocking(false);
                boolean connected = channel.connect(shared.target.address());
                conn.key = channel.register(selector, connected ? 0 : SelectionKey.OP_CONNECT, conn);
                if (connected) {
                    connected(conn, System.nanoTime());
                }
            }
            open++;
            peakConnections = Math.max(peakConnections, open);
        }

        private void connected(Conn conn, long now) {
            conn.key.interestOps(0);
            if (openModel) {
                if (conn.pendingIntended >= 0) {
                    long intended = conn.pendingIntended;
                    conn.pendingIntended = -1;
                    send(conn, intended, now);
                } else {
                    nextOrIdle(conn, now);
                }
            } else if (now >= start && now < end) {
                send(conn, now, now);
            }
        }

        private void handle(Conn conn, SelectionKey key) {
            long now = System.nanoTime();
            try {
                if (!key.isValid()) {
                    return;
                }
                if (key.isConnectable()) {
                    if (conn.channel.finishConnect()) {
                        connected(conn, now);
                    }
                    return;
                }
                if (key.isWritable()) {
                    writeSome(conn);
                }
                if (key.isValid() && key.isReadable()) {
                    readSome(conn, now);
                }
            } catch (IOException | RuntimeException e) {
                broken(conn, e.getClass().getSimpleName() + ": " + e.getMessage(), now);
            }
        }

        private void send(Conn conn, long startNanos, long now) {
            RequestStream lane = conn.ownsLane ? conn.lane : shared.lanes.borrow();
            conn.lane = lane;
            RequestSpec spec = lane.next();
            conn.spec = spec;
            conn.startNanos = startNanos;
            conn.busy = true;
            conn.out = encode(conn, spec, lane);
            try {
                writeSome(conn);
            } catch (IOException e) {
                broken(conn, "write: " + e.getMessage(), now);
            }
        }

        /** Writes the request into the connection's buffer: ASCII straight to bytes, no intermediate strings. */
        private ByteBuffer encode(Conn conn, RequestSpec spec, RequestStream lane) {
            if (spec == conn.cachedSpec && !spec.sendIfMatch()) {
                return ByteBuffer.wrap(conn.cachedBytes, 0, conn.cachedLength);
            }
            byte[] body = spec.body();
            String path = spec.path();
            String etag = spec.sendIfMatch() ? shared.etags.get(lane) : null;
            int need = 128 + path.length() + shared.hostHeader.length + (body == null ? 0 : body.length)
                    + (etag == null ? 0 : etag.length() + 16);
            byte[] out = conn.cachedBytes;
            if (out == null || out.length < need) {
                out = new byte[Math.max(need, 512)];
                conn.cachedBytes = out;
            }
            int n = ascii(out, 0, spec.method().name());
            out[n++] = ' ';
            n = ascii(out, n, path);
            n = ascii(out, n, " HTTP/1.1\r\n");
            System.arraycopy(shared.hostHeader, 0, out, n, shared.hostHeader.length);
            n += shared.hostHeader.length;
            if (etag != null) {
                n = ascii(out, n, "If-Match: ");
                n = ascii(out, n, etag);
                n = ascii(out, n, "\r\n");
            }
            if (body != null) {
                n = ascii(out, n, "Content-Type: application/json\r\nContent-Length: ");
                n = ascii(out, n, Integer.toString(body.length));
                n = ascii(out, n, "\r\n");
            }
            out[n++] = '\r';
            out[n++] = '\n';
            if (body != null) {
                System.arraycopy(body, 0, out, n, body.length);
                n += body.length;
            }
            conn.cachedSpec = spec;
            conn.cachedLength = n;
            return ByteBuffer.wrap(out, 0, n);
        }

        /** Copies an ASCII string (the contract's paths and headers are ASCII) into {@code out} at {@code at}. */
        private static int ascii(byte[] out, int at, String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c > 0x7e) {
                    throw new IllegalArgumentException("non-ASCII character in a request line or header: " + s);
                }
                out[at++] = (byte) c;
            }
            return at;
        }

        private void writeSome(Conn conn) throws IOException {
            conn.channel.write(conn.out);
            conn.key.interestOps(conn.out.hasRemaining() ? SelectionKey.OP_WRITE | SelectionKey.OP_READ : SelectionKey.OP_READ);
        }

        private void readSome(Conn conn, long now) throws IOException {
            while (true) {
                readBuffer.clear();
                int n = conn.channel.read(readBuffer);
                if (n < 0) {
                    broken(conn, "connection closed by the server", now);
                    return;
                }
                if (n == 0) {
                    return;
                }
                readBuffer.flip();
                conn.parser.append(readBuffer);
                if (!conn.busy) {
                    throw new IOException("unexpected bytes from the server while idle");
                }
                if (conn.parser.complete()) {
                    completed(conn, now);
                    return;
                }
            }
        }

        private void completed(Conn conn, long now) {
            HttpResponseParser parser = conn.parser;
            RequestSpec spec = conn.spec;
            String failure = spec.failure(parser.status(), parser::header, parser.body());
            boolean ok = failure == null;
            RequestStream lane = conn.lane;
            if (ok && spec.captureEtag()) {
                String etag = parser.header("ETag");
                if (etag != null) {
                    shared.etags.put(lane, etag);
                }
            }
            lane.completed(spec, ok);
            if (!conn.ownsLane) {
                shared.lanes.release(lane);
                conn.lane = null;
            }
            if (now < end) {
                requests++;
                if (!ok) {
                    error(spec.name() + ": " + failure);
                }
                long micros = Math.max(0, (now - conn.startNanos) / 1000);
                histogram.recordValue(Math.min(micros, HIGHEST_MICROS));
            }
            conn.busy = false;
            boolean close = parser.connectionClose();
            parser.reset();
            if (close) {
                closeQuietly(conn);
                if (openModel) {
                    discard(conn);
                } else {
                    scheduleReconnect(conn, now, 0);
                }
                return;
            }
            nextOrIdle(conn, now);
        }

        private void nextOrIdle(Conn conn, long now) {
            if (now >= end) {
                conn.key.interestOps(0);
                return;
            }
            if (!openModel) {
                send(conn, now, now);
            } else if (!pending.isEmpty()) {
                send(conn, pending.poll(), now);
            } else {
                conn.key.interestOps(SelectionKey.OP_READ); // notice a server-side close while idle
                idle.addFirst(conn);
            }
        }

        private void broken(Conn conn, String why, long now) {
            if (now < end && now >= start) {
                if (conn.busy) {
                    requests++;
                    long micros = Math.max(0, (now - conn.startNanos) / 1000);
                    histogram.recordValue(Math.min(micros, HIGHEST_MICROS));
                    error((conn.spec != null ? conn.spec.name() + ": " : "") + why);
                } else if (!why.startsWith("connection closed")) {
                    error(why);
                }
            }
            if (conn.busy && conn.lane != null) {
                conn.lane.completed(conn.spec, false);
                if (!conn.ownsLane) {
                    shared.lanes.release(conn.lane);
                    conn.lane = null;
                }
            }
            conn.busy = false;
            closeQuietly(conn);
            idle.remove(conn);
            if (openModel) {
                discard(conn);
            } else {
                scheduleReconnect(conn, now, RECONNECT_BACKOFF_NANOS);
            }
        }

        private void scheduleReconnect(Conn conn, long now, long backoff) {
            conn.reconnectAt = now + backoff;
            reconnect.add(conn);
            if (backoff == 0) {
                housekeepReconnects(now);
            }
        }

        private void housekeeping(long now) {
            housekeepReconnects(now);
            for (Conn conn : new ArrayList<>(conns)) {
                if (conn.busy && now - conn.startNanos > shared.timeoutNanos && conn.channel != null) {
                    broken(conn, "no response within " + shared.timeoutNanos / 1_000_000 + " ms", now);
                }
            }
        }

        private void housekeepReconnects(long now) {
            int n = reconnect.size();
            for (int i = 0; i < n; i++) {
                Conn conn = reconnect.pollFirst();
                if (conn.reconnectAt > now) {
                    reconnect.addLast(conn);
                    continue;
                }
                try {
                    connect(conn, false);
                } catch (IOException e) {
                    error("connect: " + e.getMessage());
                    conn.reconnectAt = now + RECONNECT_BACKOFF_NANOS;
                    reconnect.addLast(conn);
                }
            }
        }

        private void discard(Conn conn) {
            conns.remove(conn);
            idle.remove(conn);
        }

        private void closeQuietly(Conn conn) {
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

        private void error(String reason) {
            errors++;
            if (failures.size() < 8 || failures.containsKey(reason)) {
                failures.merge(reason, 1L, Long::sum);
            }
        }

        private void fail(String reason) {
            error(reason);
        }

        long inFlightAtEnd() {
            long n = 0;
            for (Conn conn : conns) {
                if (conn.busy) {
                    n++;
                }
            }
            return n;
        }

        void closeAll() {
            for (Conn conn : conns) {
                if (conn.channel != null) {
                    try {
                        conn.channel.close();
                    } catch (IOException ignored) {
                        // closing anyway
                    }
                    conn.channel = null;
                }
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** A growable FIFO of longs (intended start times), without boxing. */
    static final class LongQueue {
        private long[] items = new long[1024];
        private int head;
        private int size;

        void add(long value) {
            if (size == items.length) {
                long[] bigger = new long[items.length * 2];
                for (int i = 0; i < size; i++) {
                    bigger[i] = items[(head + i) % items.length];
                }
                items = bigger;
                head = 0;
            }
            items[(head + size) % items.length] = value;
            size++;
        }

        long poll() {
            long value = items[head];
            head = (head + 1) % items.length;
            size--;
            return value;
        }

        boolean isEmpty() {
            return size == 0;
        }

        int size() {
            return size;
        }
    }
}
