package org.testbed.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.testbed.scenario.RequestSpec;

/**
 * The thinnest HTTP/1.1 client that still checks every answer: one blocking socket kept alive,
 * requests encoded once up front, responses read into one reusable buffer.
 *
 * <p>Why not {@code java.net.http.HttpClient}: it hands every exchange to its selector thread and
 * back through futures, which costs tens of microseconds of its own and two thread wake-ups per
 * request, about as much as the fastest variants spend on the whole request. Measuring the server
 * needs a client that costs next to nothing. The price is that this one understands only what the
 * contract promises — {@code Content-Length} bodies on a keep-alive connection — and fails loudly
 * on anything else (chunked bodies, {@code Connection: close}, a closed socket), since each of
 * those is a contract violation the benchmark must not paper over.
 *
 * <p>Why not the contract suite's {@code RawConnection} either: that one is a wire-level probe,
 * which writes any bytes (malformed on purpose), survives a server that answers and closes, keeps
 * every header in a map and speaks TLS; each of those costs allocations and branches per request
 * that would show in these figures. The two share no code because they share no job: this one is
 * part of a measuring instrument, that one of a test of hostile and edge-case input.
 */
final class KeepAliveClient implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 10_000;
    private static final byte[] HEADER_END = {'\r', '\n', '\r', '\n'};
    private static final byte[] CRLF = {'\r', '\n'};
    /** Header names in lower case with the colon; {@code | 0x20} lower-cases letters and keeps ':' and '-'. */
    private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION = "connection:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "close".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String hostHeader;
    private byte[] buffer = new byte[16 * 1024];
    /** Bytes of the last response in {@link #buffer}: [0, headerEnd) head, [bodyStart, bodyEnd) body. */
    private int headerEnd;
    private int bodyStart;
    private int bodyEnd;
    private int status;

    private KeepAliveClient(Socket socket, String hostHeader) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.hostHeader = hostHeader;
    }

    static KeepAliveClient connect(URI base) {
        if (!"http".equals(base.getScheme())) {
            throw new IllegalArgumentException("only plain HTTP is supported: " + base);
        }
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), READ_TIMEOUT_MS);
            return new KeepAliveClient(socket, base.getHost() + ":" + base.getPort());
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already failing
            }
            throw new UncheckedIOException("cannot connect to " + base, e);
        }
    }

    /** The request bytes of {@code spec} (headers a browser-less load tool sends, and its body). */
    byte[] encode(RequestSpec spec) {
        StringBuilder head = new StringBuilder(128)
                .append(spec.method()).append(' ').append(spec.path()).append(" HTTP/1.1\r\n")
                .append("Host: ").append(hostHeader).append("\r\n")
                .append("Accept: */*\r\n");
        byte[] body = spec.hasBody() ? spec.body() : new byte[0];
        if (spec.hasBody()) {
            head.append("Content-Type: ").append(RequestSpec.JSON).append("\r\n")
                    .append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] request = Arrays.copyOf(headBytes, headBytes.length + body.length);
        System.arraycopy(body, 0, request, headBytes.length, body.length);
        return request;
    }

    /**
     * Sends one encoded request and reads its response; returns the status. The fast check is
     * {@code expectedStatus} and {@code expectedBody} byte for byte; when the body differs, the
     * spec's own checks decide (an equivalent JSON layout passes), so only a real failure throws.
     */
    int exchange(byte[] request, RequestSpec spec, byte[] expectedBody) {
        try {
            out.write(request);
            out.flush();
            readResponse();
        } catch (IOException e) {
            throw new UncheckedIOException(spec.name() + ": " + e.getMessage(), e);
        }
        if (status != spec.expectedStatus()
                || (expectedBody != null && !Arrays.equals(buffer, bodyStart, bodyEnd, expectedBody, 0, expectedBody.length))) {
            String failure = spec.failure(status, this::header, Arrays.copyOfRange(buffer, bodyStart, bodyEnd));
            if (failure != null) {
                throw new IllegalStateException(spec + " failed: " + failure + "; response head:\n"
                        + new String(buffer, 0, headerEnd, StandardCharsets.ISO_8859_1) + "\nbody: "
                        + new String(buffer, bodyStart, Math.min(bodyEnd - bodyStart, 500), StandardCharsets.UTF_8));
            }
        }
        return status;
    }

    private void readResponse() throws IOException {
        int filled = fill(0);
        int scanned = 0;
        int end;
        while ((end = indexOf(buffer, scanned, filled, HEADER_END)) < 0) {
            scanned = Math.max(0, filled - HEADER_END.length + 1);
            filled = fill(filled);
        }
        headerEnd = end;
        bodyStart = end + HEADER_END.length;
        status = parseStatus();
        long length = contentLength();
        if (length > Integer.MAX_VALUE - bodyStart) {
            throw new IOException("Content-Length " + length + " is too large");
        }
        bodyEnd = bodyStart + (int) length;
        while (filled < bodyEnd) {
            filled = fill(filled);
        }
        if (filled > bodyEnd) {
            throw new IOException((filled - bodyEnd) + " bytes after the response body that nobody asked for");
        }
    }

    /** Reads more bytes after {@code filled}; returns the new fill level. */
    private int fill(int filled) throws IOException {
        if (filled == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        int n = in.read(buffer, filled, buffer.length - filled);
        if (n < 0) {
            throw new IOException("the server closed the keep-alive connection"
                    + (filled > 0 ? " in the middle of a response" : ""));
        }
        return filled + n;
    }

    private int parseStatus() throws IOException {
        // "HTTP/1.1 200 ..."
        if (headerEnd < 12 || buffer[0] != 'H' || buffer[8] != ' ') {
            throw new IOException("not an HTTP/1.1 status line: " + head(40));
        }
        int code = 0;
        for (int i = 9; i < 12; i++) {
            int digit = buffer[i] - '0';
            if (digit < 0 || digit > 9) {
                throw new IOException("not an HTTP status code: " + head(40));
            }
            code = code * 10 + digit;
        }
        return code;
    }

    /**
     * The body length, read without allocating (this runs once per request, and the client's own
     * garbage would show up in {@code -prof gc}); also refuses {@code Connection: close}.
     */
    private long contentLength() throws IOException {
        long length = -1;
        int lineStart = indexOf(buffer, 0, headerEnd + 2, CRLF) + 2;
        while (lineStart > 1 && lineStart < headerEnd) {
            int lineEnd = indexOf(buffer, lineStart, headerEnd + 2, CRLF);
            if (regionIs(lineStart, lineEnd, CONTENT_LENGTH)) {
                length = 0;
                for (int i = lineStart + CONTENT_LENGTH.length; i < lineEnd; i++) {
                    byte b = buffer[i];
                    if (b >= '0' && b <= '9') {
                        length = length * 10 + (b - '0');
                    } else if (b != ' ' && b != '\t') {
                        throw new IOException("bad Content-Length: " + head(headerEnd));
                    }
                }
            } else if (regionIs(lineStart, lineEnd, CONNECTION)
                    && indexOfIgnoreCase(lineStart + CONNECTION.length, lineEnd, CLOSE) >= 0) {
                throw new IOException("the server closes the connection (" + line(lineStart, lineEnd)
                        + "); keep-alive must be honoured");
            }
            lineStart = lineEnd + 2;
        }
        if (length < 0) {
            String encoding = header("Transfer-Encoding");
            throw new IOException("no Content-Length" + (encoding == null ? "" : " (Transfer-Encoding: " + encoding + ")")
                    + "; the contract says every response sets it. Head:\n" + head(headerEnd));
        }
        return length;
    }

    /** The value of the first header called {@code name} in the last response, or null (slow path). */
    String header(String name) {
        int lineStart = indexOf(buffer, 0, headerEnd + 2, CRLF) + 2;
        while (lineStart > 1 && lineStart < headerEnd) {
            int lineEnd = indexOf(buffer, lineStart, headerEnd + 2, CRLF);
            String line = line(lineStart, lineEnd);
            int colon = line.indexOf(':');
            if (colon == name.length() && line.regionMatches(true, 0, name, 0, colon)) {
                return line.substring(colon + 1).strip();
            }
            lineStart = lineEnd + 2;
        }
        return null;
    }

    /** Does the header line [start, end) start with {@code prefix} (lower case, ASCII), ignoring case? */
    private boolean regionIs(int start, int end, byte[] prefix) {
        if (end - start < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((buffer[start + i] | 0x20) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private int indexOfIgnoreCase(int from, int to, byte[] lowerCase) {
        for (int i = from; i <= to - lowerCase.length; i++) {
            if (regionIs(i, to, lowerCase)) {
                return i;
            }
        }
        return -1;
    }

    private String line(int start, int end) {
        return new String(buffer, start, end - start, StandardCharsets.ISO_8859_1);
    }

    private String head(int max) {
        return new String(buffer, 0, Math.min(max, Math.max(headerEnd, 0)), StandardCharsets.ISO_8859_1);
    }

    /** The first index of {@code pattern} within {@code data[from, to)}, or -1. */
    private static int indexOf(byte[] data, int from, int to, byte[] pattern) {
        // Responses here are a few hundred bytes; a plain scan is cheaper than anything clever.
        outer:
        for (int i = from; i <= to - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing to do
        }
    }
}
