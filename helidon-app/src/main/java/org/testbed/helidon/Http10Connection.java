package org.testbed.helidon;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.Router;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;

/**
 * A connection {@link RequestLineSelector} took from Helidon: its first request is HTTP/1.0, which
 * Helidon 4 does not serve, or no HTTP at all. An HTTP/1.0 request head is read here and handed to
 * Helidon's HTTP/1.1 connection as the same request in HTTP/1.1 with {@code Connection: close}
 * (HTTP/1.0 has no persistent connections by default) and, when it has none, a {@code Host} naming
 * this server (HTTP/1.0 needs none; HTTP/1.1 does): so it goes through the same handler as every
 * other request, and the connection ends after its answer. Anything else gets a 400 problem.
 */
final class Http10Connection implements ServerConnection {
    private static final int MAX_HEAD = 8 * 1024;

    private final ConnectionContext ctx;
    private final Http1Config http1;
    private volatile ServerConnection delegate;

    Http10Connection(ConnectionContext ctx, Http1Config http1) {
        this.ctx = ctx;
        this.http1 = http1;
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
        DataReader in = ctx.dataReader();
        byte[] head;
        try {
            head = http11Head(in);
        } catch (DataReader.InsufficientDataAvailableException | DataReader.IncorrectNewLineException e) {
            head = null;
        }
        if (head == null) {
            ctx.dataWriter().writeNow(RawProblem.of(400, "The request is not valid HTTP/1.1."));
            return;
        }
        byte[] first = head;
        AnsweredWriter writer = new AnsweredWriter(ctx.dataWriter());
        DataReader rewritten = new DataReader(new java.util.function.Supplier<>() {
            private boolean headGiven;

            @Override
            public byte[] get() {
                if (!headGiven) {
                    headGiven = true;
                    return first;
                }
                if (writer.answered) {
                    return null; // the end of the stream, as HTTP/1.0 ends the connection after the answer
                }
                try {
                    in.ensureAvailable();
                } catch (DataReader.InsufficientDataAvailableException end) {
                    return null;
                }
                return in.readBytes(in.available());
            }
        });
        delegate = Http1ConnectionSelector.builder().config(http1).build().connection(new Rewritten(ctx, rewritten, writer));
        delegate.handle(limit);
    }

    /** The request head as HTTP/1.1, or null when the first line is not an HTTP/1.0 request line. */
    private static byte[] http11Head(DataReader in) {
        List<String> lines = new ArrayList<>();
        int size = 0;
        while (true) {
            int eol = in.findNewLine(MAX_HEAD - size);
            if (eol >= MAX_HEAD - size) {
                return null;
            }
            String line = in.readAsciiString(eol);
            in.skip(2);
            size += eol + 2;
            if (line.isEmpty()) {
                break;
            }
            lines.add(line);
        }
        String requestLine = lines.isEmpty() ? "" : lines.get(0);
        int space = requestLine.indexOf(' ');
        if (!requestLine.endsWith(" HTTP/1.0") || space <= 0
                || !requestLine.substring(0, space).chars().allMatch(c -> c >= 'A' && c <= 'Z')) {
            return null;
        }
        StringBuilder head = new StringBuilder(size + 64);
        head.append(requestLine, 0, requestLine.length() - "1.0".length()).append("1.1\r\n");
        boolean host = false;
        for (String header : lines.subList(1, lines.size())) {
            String name = header.substring(0, Math.max(0, header.indexOf(':'))).trim().toLowerCase(Locale.ROOT);
            if (name.equals("connection") || name.equals("keep-alive")) {
                continue;
            }
            host |= name.equals("host");
            head.append(header).append("\r\n");
        }
        if (!host) {
            head.append("Host: localhost\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        return head.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public Duration idleTime() {
        ServerConnection current = delegate;
        return current == null ? Duration.ZERO : current.idleTime();
    }

    @Override
    public void close(boolean interrupt) {
        ServerConnection current = delegate;
        if (current != null) {
            current.close(interrupt);
        }
    }

    /** The connection's context with the rewritten request as what it reads. */
    private record Rewritten(ConnectionContext ctx, DataReader reader, DataWriter writer) implements ConnectionContext {
        @Override
        public DataReader dataReader() {
            return reader;
        }

        @Override
        public ListenerContext listenerContext() {
            return ctx.listenerContext();
        }

        @Override
        public ExecutorService executor() {
            return ctx.executor();
        }

        @Override
        public DataWriter dataWriter() {
            return writer;
        }

        @Override
        public Router router() {
            return ctx.router();
        }

        @Override
        public PeerInfo remotePeer() {
            return ctx.remotePeer();
        }

        @Override
        public PeerInfo localPeer() {
            return ctx.localPeer();
        }

        @Override
        public boolean isSecure() {
            return ctx.isSecure();
        }

        @Override
        public String socketId() {
            return ctx.socketId();
        }

        @Override
        public String childSocketId() {
            return ctx.childSocketId();
        }
    }

    /** The connection's writer, noting that an answer has been written. */
    private static final class AnsweredWriter implements DataWriter {
        private final DataWriter writer;
        private volatile boolean answered;

        AnsweredWriter(DataWriter writer) {
            this.writer = writer;
        }

        @Override
        public void write(BufferData... buffers) {
            answered = true;
            writer.write(buffers);
        }

        @Override
        public void write(BufferData buffer) {
            answered = true;
            writer.write(buffer);
        }

        @Override
        public void writeNow(BufferData... buffers) {
            answered = true;
            writer.writeNow(buffers);
        }

        @Override
        public void writeNow(BufferData buffer) {
            answered = true;
            writer.writeNow(buffer);
        }

        @Override
        public void flush() {
            writer.flush();
        }

        @Override
        public void close() {
            writer.close();
        }
    }
}
