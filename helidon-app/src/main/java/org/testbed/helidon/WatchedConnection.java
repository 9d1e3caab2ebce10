package org.testbed.helidon;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.Router;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;

/**
 * One connection, read through a {@link WatchedInput} (so the {@link IdleCutter} can end it), and
 * handed to Helidon's HTTP/1.1 connection after its first request line was looked at:
 * <ul>
 *   <li>an HTTP/1.1 request line with an upper-case method: handed on as it came;</li>
 *   <li>HTTP/1.0, which Helidon 4 does not serve: its head is handed on as the same request in
 *       HTTP/1.1 with {@code Connection: close} (HTTP/1.0 has no persistent connections by
 *       default) and, when it has none, a {@code Host} (HTTP/1.0 needs none; HTTP/1.1 does), so it
 *       goes through the same handler as any other; the connection ends after the answer;</li>
 *   <li>anything else (garbage, a TLS ClientHello on the plain port, bare LF line ends, a method
 *       that is not upper case, which Helidon would read as the upper-case one): a 400 problem.</li>
 * </ul>
 * Only the first request of a connection is looked at; later ones are Helidon's parser's alone.
 */
final class WatchedConnection implements ServerConnection {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final int MAX_HEAD = 8 * 1024;

    private final ConnectionContext ctx;
    private final Http1ConnectionSelector http1;
    private final int maxRequestLine;
    private final IdleCutter cutter;
    private volatile ServerConnection delegate;

    WatchedConnection(ConnectionContext ctx, Http1ConnectionSelector http1, int maxRequestLine, IdleCutter cutter) {
        this.ctx = ctx;
        this.http1 = http1;
        this.maxRequestLine = maxRequestLine;
        this.cutter = cutter;
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
        WatchedInput input = new WatchedInput(ctx.dataReader(), Thread.currentThread());
        cutter.watch(input);
        try {
            ServerConnection next = firstRequest(input);
            if (next != null) {
                delegate = next;
                next.handle(limit);
            }
        } finally {
            cutter.forget(input);
        }
    }

    /** The HTTP/1.1 connection to hand on to, or null once the request was refused or the peer left. */
    private ServerConnection firstRequest(WatchedInput input) {
        DataReader reader = new DataReader(input);
        int eol;
        try {
            eol = reader.findNewLine(maxRequestLine);
        } catch (DataReader.IncorrectNewLineException bareLineFeed) {
            return refuse();
        } catch (DataReader.InsufficientDataAvailableException gone) {
            return null;
        }
        if (eol >= maxRequestLine) { // Helidon answers a request line too long itself
            input.pushBack(rest(reader));
            return http11(input, ctx.dataWriter());
        }
        byte[] line = reader.readBytes(eol);
        reader.skip(2);
        String requestLine = new String(line, StandardCharsets.ISO_8859_1);
        if (requestLine.endsWith(" HTTP/1.1") && upperCaseMethod(requestLine)) {
            input.pushBack(concat(line, CRLF, rest(reader)));
            return http11(input, ctx.dataWriter());
        }
        if (requestLine.endsWith(" HTTP/1.0") && upperCaseMethod(requestLine)) {
            byte[] head;
            try {
                head = http11Head(requestLine, reader);
            } catch (DataReader.IncorrectNewLineException | DataReader.InsufficientDataAvailableException e) {
                head = null;
            }
            if (head != null) {
                input.pushBack(concat(head, rest(reader)));
                return http11(input, new EndingWriter(ctx.dataWriter(), input));
            }
        }
        return refuse();
    }

    private ServerConnection refuse() {
        ctx.dataWriter().writeNow(RawProblem.of(400, "The request is not valid HTTP/1.1."));
        return null;
    }

    private ServerConnection http11(WatchedInput input, DataWriter writer) {
        return http1.connection(new Watched(ctx, new DataReader(input), writer));
    }

    /** RFC 9110: methods are case-sensitive; Helidon reads {@code get} as {@code GET}. */
    private static boolean upperCaseMethod(String requestLine) {
        int space = requestLine.indexOf(' ');
        return space > 0 && requestLine.substring(0, space).chars().allMatch(c -> c >= 'A' && c <= 'Z');
    }

    /** The rest of an HTTP/1.0 head, rewritten as HTTP/1.1; null when it is too long. */
    private static byte[] http11Head(String requestLine, DataReader reader) {
        List<String> headers = new ArrayList<>();
        int size = requestLine.length();
        while (true) {
            int eol = reader.findNewLine(MAX_HEAD - size);
            if (eol >= MAX_HEAD - size) {
                return null;
            }
            String header = new String(reader.readBytes(eol), StandardCharsets.ISO_8859_1);
            reader.skip(2);
            size += eol + 2;
            if (header.isEmpty()) {
                break;
            }
            headers.add(header);
        }
        StringBuilder head = new StringBuilder(size + 64);
        head.append(requestLine, 0, requestLine.length() - "1.0".length()).append("1.1\r\n");
        boolean host = false;
        for (String header : headers) {
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

    private static byte[] rest(DataReader reader) {
        return reader.available() == 0 ? new byte[0] : reader.readBytes(reader.available());
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
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

    /** The connection's context, reading through the watched input. */
    private record Watched(ConnectionContext ctx, DataReader reader, DataWriter writer) implements ConnectionContext {
        @Override
        public DataReader dataReader() {
            return reader;
        }

        @Override
        public DataWriter dataWriter() {
            return writer;
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

    /** The connection's writer, ending the input once an answer is written (HTTP/1.0). */
    private static final class EndingWriter implements DataWriter {
        private final DataWriter writer;
        private final WatchedInput input;

        EndingWriter(DataWriter writer, WatchedInput input) {
            this.writer = writer;
            this.input = input;
        }

        @Override
        public void write(BufferData... buffers) {
            input.end();
            writer.write(buffers);
        }

        @Override
        public void write(BufferData buffer) {
            input.end();
            writer.write(buffer);
        }

        @Override
        public void writeNow(BufferData... buffers) {
            input.end();
            writer.writeNow(buffers);
        }

        @Override
        public void writeNow(BufferData buffer) {
            input.end();
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
