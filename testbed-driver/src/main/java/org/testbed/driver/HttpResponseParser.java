package org.testbed.driver;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An incremental HTTP/1.1 response parser for one connection: bytes are appended as they arrive
 * and {@link #complete()} says when a whole response (status line, headers, a body framed by
 * {@code Content-Length} or chunked) is in. No pipelining: one response at a time.
 *
 * <p>Whatever the bytes, {@link #complete()} answers or throws an {@link IllegalStateException} that
 * says what is malformed (the event loop counts it as that connection's error), and its answer does
 * not depend on how the bytes were cut into appends ({@code HttpResponseParserFuzzTest}).
 */
final class HttpResponseParser {
    private static final byte[] EMPTY = new byte[0];

    private byte[] buf = new byte[8192];
    private int len;
    private int scanned;
    private int headerEnd = -1;
    private int status;
    private long contentLength;
    private boolean chunked;
    private boolean connectionClose;
    private int[] nameStart = new int[16];
    private int[] colons = new int[16];
    private int[] lineEnds = new int[16];
    private int headerCount;
    private byte[] body;
    private int consumed;

    HttpResponseParser() {
        reset();
    }

    void reset() {
        // Keep bytes past the last response (none without pipelining, but be exact).
        if (consumed > 0 && consumed < len) {
            System.arraycopy(buf, consumed, buf, 0, len - consumed);
            len -= consumed;
        } else {
            len = 0;
        }
        consumed = 0;
        scanned = 0;
        headerEnd = -1;
        status = 0;
        contentLength = -1;
        chunked = false;
        connectionClose = false;
        headerCount = 0;
        body = null;
    }

    void append(java.nio.ByteBuffer src) {
        int n = src.remaining();
        if (len + n > buf.length) {
            byte[] bigger = new byte[Math.max(buf.length * 2, len + n)];
            System.arraycopy(buf, 0, bigger, 0, len);
            buf = bigger;
        }
        src.get(buf, len, n);
        len += n;
    }

    void append(byte[] src) {
        append(java.nio.ByteBuffer.wrap(src));
    }

    /** True once a whole response is buffered; throws on a malformed one. */
    boolean complete() {
        if (headerEnd < 0) {
            int end = indexOfHeaderEnd();
            if (end < 0) {
                return false;
            }
            headerEnd = end;
            parseHead();
        }
        if (chunked) {
            return dechunk();
        }
        long need = headerEnd + contentLength;
        if (len < need) {
            return false;
        }
        body = contentLength == 0 ? EMPTY : java.util.Arrays.copyOfRange(buf, headerEnd, (int) need);
        consumed = (int) need;
        return true;
    }

    int status() {
        return status;
    }

    byte[] body() {
        return body;
    }

    /** The whole response's bytes as they came (status line, headers, body and any chunk framing); after {@link #complete}. */
    int messageLength() {
        return consumed;
    }

    boolean connectionClose() {
        return connectionClose;
    }

    boolean hasPartialData() {
        return len > 0;
    }

    private int indexOfHeaderEnd() {
        for (int i = Math.max(0, scanned - 3); i + 3 < len; i++) {
            if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n') {
                return i + 4;
            }
        }
        scanned = len;
        return -1;
    }

    private void parseHead() {
        int lineEnd = indexOfCrlf(0);
        if (lineEnd < 12 || buf[0] != 'H' || buf[1] != 'T' || buf[2] != 'T' || buf[3] != 'P' || buf[4] != '/'
                || buf[5] != '1' || buf[6] != '.') {
            throw new IllegalStateException("not an HTTP/1.x status line: "
                    + new String(buf, 0, Math.max(0, Math.min(lineEnd < 0 ? len : lineEnd, 80)), StandardCharsets.ISO_8859_1));
        }
        // RFC 9110, 15: three digits, the first of them 1 to 5.
        if (buf[8] != ' ' || buf[9] < '1' || buf[9] > '5' || !isDigit(buf[10]) || !isDigit(buf[11])) {
            throw new IllegalStateException("no status 100-599 in the status line: "
                    + new String(buf, 0, Math.min(lineEnd, 80), StandardCharsets.ISO_8859_1));
        }
        status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
        // Remember where each header line is; names are compared only when asked for (no allocation).
        headerCount = 0;
        int at = lineEnd + 2;
        int limit = headerEnd - 2;
        while (at < limit) {
            int end = indexOfCrlf(at);
            if (end < 0 || end > limit) {
                end = limit;
            }
            int colon = -1;
            for (int i = at; i < end; i++) {
                if (buf[i] == ':') {
                    colon = i;
                    break;
                }
            }
            if (colon > at) {
                if (headerCount == nameStart.length) {
                    nameStart = java.util.Arrays.copyOf(nameStart, headerCount * 2);
                    colons = java.util.Arrays.copyOf(colons, headerCount * 2);
                    lineEnds = java.util.Arrays.copyOf(lineEnds, headerCount * 2);
                }
                nameStart[headerCount] = at;
                colons[headerCount] = colon;
                lineEnds[headerCount] = end;
                headerCount++;
            }
            at = end + 2;
        }
        String te = header("transfer-encoding");
        chunked = te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
        String cl = header("content-length");
        if (cl != null) {
            contentLength = length(cl, 10, Integer.MAX_VALUE - headerEnd, "Content-Length");
        } else if (!chunked) {
            if (status == 204 || status == 304 || status / 100 == 1) {
                contentLength = 0;
            } else {
                throw new IllegalStateException("response " + status + " has neither Content-Length nor chunked"
                        + " encoding (the contract requires Content-Length)");
            }
        }
        String connection = header("connection");
        connectionClose = connection != null && connection.toLowerCase(Locale.ROOT).contains("close");
    }

    /** The value of header {@code name} (case-insensitive), trimmed, or null. */
    String header(String name) {
        for (int h = 0; h < headerCount; h++) {
            int start = nameStart[h];
            int colon = colons[h];
            int n = colon - start;
            while (n > 0 && (buf[start + n - 1] == ' ' || buf[start + n - 1] == '\t')) {
                n--;
            }
            if (n != name.length()) {
                continue;
            }
            boolean same = true;
            for (int i = 0; i < n; i++) {
                int a = buf[start + i] | 0x20;
                int b = name.charAt(i) | 0x20;
                if (a != b) {
                    same = false;
                    break;
                }
            }
            if (same) {
                int from = colon + 1;
                int to = lineEnds[h];
                while (from < to && (buf[from] == ' ' || buf[from] == '\t')) {
                    from++;
                }
                while (to > from && (buf[to - 1] == ' ' || buf[to - 1] == '\t')) {
                    to--;
                }
                return new String(buf, from, to - from, StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    /** Decodes a complete chunked body; false while it is incomplete. */
    private boolean dechunk() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = headerEnd;
        while (true) {
            int lineEnd = indexOfCrlf(at);
            if (lineEnd < 0) {
                return false;
            }
            String sizeText = new String(buf, at, lineEnd - at, StandardCharsets.ISO_8859_1);
            int semi = sizeText.indexOf(';');
            at = lineEnd + 2;
            int size = (int) length((semi < 0 ? sizeText : sizeText.substring(0, semi)).trim(), 16,
                    Integer.MAX_VALUE - 2 - at, "chunk size");
            if (size == 0) {
                // trailers, then an empty line
                while (true) {
                    int end = indexOfCrlf(at);
                    if (end < 0) {
                        return false;
                    }
                    boolean empty = end == at;
                    at = end + 2;
                    if (empty) {
                        body = out.toByteArray();
                        consumed = at;
                        return true;
                    }
                }
            }
            if (at + size + 2 > len) {
                return false;
            }
            if (buf[at + size] != '\r' || buf[at + size + 1] != '\n') {
                throw new IllegalStateException("a chunk of " + size + " bytes is not followed by CRLF");
            }
            out.write(buf, at, size);
            at += size + 2;
        }
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /**
     * A length of the framing ({@code Content-Length} in decimal, a chunk size in hex): digits only, at
     * most {@code max} (a body that fits in one buffer), else an {@link IllegalStateException} naming it.
     */
    private static long length(String text, int radix, long max, String what) {
        long value = 0;
        boolean digits = !text.isEmpty();
        for (int i = 0; i < text.length() && digits; i++) {
            char c = text.charAt(i);
            int d = c >= '0' && c <= '9' ? c - '0'
                    : radix == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : radix == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) {
                digits = false;
            } else {
                value = value * radix + d;
                if (value > max) {
                    throw new IllegalStateException(what + " " + abbreviate(text) + " is larger than a response can be");
                }
            }
        }
        if (!digits) {
            throw new IllegalStateException(what + " '" + abbreviate(text) + "' is not a length");
        }
        return value;
    }

    private static String abbreviate(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }

    private int indexOfCrlf(int from) {
        for (int i = from; i + 1 < len; i++) {
            if (buf[i] == '\r' && buf[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
