package org.testbed.contract;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.testbed.scenario.LoopbackTls;

/**
 * One plain HTTP/1.1 connection, written and read by hand, so a test can see exactly what happens
 * on the wire: several requests on one connection (keep-alive) and the framing of each response.
 *
 * <p>Deliberately not the JDK client (it refuses control characters in headers and rewrites
 * targets) and not the benchmarks' {@code KeepAliveClient} (which allocates nothing per request and
 * fails on the first answer outside the contract): this one writes any bytes, hostile ones
 * included, reads an answer even after its write failed, keeps every header for the assertions,
 * and speaks TLS to a variant started with {@code --tls}.
 */
final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String hostHeader;

    record RawResponse(int status, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** Converts to the JDK client's view, for {@link HttpProbe}'s checks. */
        HttpProbe.Reply toReply() {
            Map<String, java.util.List<String>> all = new LinkedHashMap<>();
            headers.forEach((name, value) -> all.put(name, java.util.List.of(value)));
            return new HttpProbe.Reply(status, java.net.http.HttpHeaders.of(all, (name, value) -> true), body,
                    java.time.Duration.ZERO);
        }
    }

    RawConnection(URI base) throws IOException {
        socket = base.getScheme().equals("https")
                ? LoopbackTls.trustingAnyCertificate().getSocketFactory().createSocket(base.getHost(), base.getPort())
                : new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(10_000);
        // Buffered: responses are parsed a byte at a time, which must not be a system call each.
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
        hostHeader = base.getHost() + ":" + base.getPort();
    }

    RawResponse exchange(String method, String path, String contentType, byte[] body) throws IOException {
        send(method, path, contentType, body);
        return receive(method);
    }

    /**
     * Writes one request without waiting for its answer; {@link #receive} reads it. Lets a test put
     * a request on each of many connections before reading any answer, so they are all in flight.
     */
    void send(String method, String path, String contentType, byte[] body) throws IOException {
        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(hostHeader).append("\r\n");
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        if (body != null) {
            out.write(body);
        }
        out.flush();
    }

    /**
     * Writes {@code request} exactly as given (any bytes, any framing) and reads one response. A
     * server may answer and close before it has read everything (a header block over its limit):
     * a failed write is remembered and the answer read all the same.
     *
     * @throws NoAnswer if the connection ends, or is reset, before a status line arrives
     */
    RawResponse send(byte[] request, String method) throws IOException {
        IOException writeFailure = null;
        try {
            out.write(request);
            out.flush();
        } catch (IOException e) {
            writeFailure = e;
        }
        try {
            return receive(method);
        } catch (NoAnswer e) {
            if (writeFailure != null) {
                e.addSuppressed(writeFailure);
            }
            throw e;
        }
    }

    /** The connection ended (EOF or reset) before any status line: the server sent no answer. */
    static final class NoAnswer extends IOException {
        NoAnswer(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Reads the response to the request {@link #send} wrote with {@code method}.
     *
     * @throws NoAnswer if the connection ends, or is reset, before a status line arrives
     */
    RawResponse receive(String method) throws IOException {
        String statusLine;
        try {
            statusLine = line();
        } catch (java.net.SocketException reset) {
            throw new NoAnswer("connection reset before a response", reset);
        }
        if (statusLine == null) {
            throw new NoAnswer("connection closed before a response", null);
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("\\d{3}")) {
            throw new IOException("not an HTTP/1.x status line: " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        String line;
        while ((line = line()) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed response header line: " + line);
            }
            headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
        }
        String length = headers.get("content-length");
        if (headers.containsKey("transfer-encoding")) {
            throw new IOException("chunked response; the contract wants Content-Length: " + headers);
        }
        byte[] body = method.equals("HEAD") || length == null ? new byte[0] : in.readNBytes(Integer.parseInt(length));
        return new RawResponse(status, headers, body);
    }

    private String line() throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                byte[] bytes = buffer.toByteArray();
                int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
            }
            buffer.write(b);
        }
        return buffer.size() == 0 ? null : buffer.toString(StandardCharsets.ISO_8859_1);
    }

    /** True if the server has not closed its side: a read would block rather than see EOF. */
    boolean isOpen() throws IOException {
        socket.setSoTimeout(200);
        try {
            int b = in.read();
            return b != -1;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return true;
        } finally {
            socket.setSoTimeout(10_000);
        }
    }

    Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
