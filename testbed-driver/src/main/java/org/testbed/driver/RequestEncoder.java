package org.testbed.driver;

import java.nio.ByteBuffer;
import org.testbed.scenario.RequestSpec;

/**
 * Writes requests as HTTP/1.1 bytes: ASCII straight to bytes, no intermediate strings. One per
 * connection: it keeps the last request's bytes, so a connection that repeats a request (plaintext,
 * json) encodes it once.
 */
final class RequestEncoder {
    private final byte[] fixedHeaders;
    private RequestSpec cachedSpec;
    private byte[] cachedBytes;
    private int cachedLength;

    /** {@code fixedHeaders}: the header lines every request carries ({@code Host: ...\r\n} and more), shared by the connections of a step. */
    RequestEncoder(byte[] fixedHeaders) {
        this.fixedHeaders = fixedHeaders;
    }

    /**
     * The request's bytes, valid until the next call. {@code etag}: the If-Match value when the
     * request sends one, else null.
     */
    ByteBuffer encode(RequestSpec spec, String etag) {
        if (spec == cachedSpec && !spec.sendIfMatch()) {
            return ByteBuffer.wrap(cachedBytes, 0, cachedLength);
        }
        byte[] body = spec.body();
        String path = spec.path();
        int need = 128 + path.length() + fixedHeaders.length + (body == null ? 0 : body.length)
                + (etag == null ? 0 : etag.length() + 16);
        byte[] out = cachedBytes;
        if (out == null || out.length < need) {
            out = new byte[Math.max(need, 512)];
            cachedBytes = out;
        }
        int n = ascii(out, 0, spec.method().name());
        out[n++] = ' ';
        n = ascii(out, n, path);
        n = ascii(out, n, " HTTP/1.1\r\n");
        System.arraycopy(fixedHeaders, 0, out, n, fixedHeaders.length);
        n += fixedHeaders.length;
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
        cachedSpec = spec;
        cachedLength = n;
        return ByteBuffer.wrap(out, 0, n);
    }

    /** Copies an ASCII string (the contract's paths and headers are ASCII) into {@code out} at {@code at}. */
    static int ascii(byte[] out, int at, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0x7e) {
                throw new IllegalArgumentException("non-ASCII character in a request line or header: " + s);
            }
            out[at++] = (byte) c;
        }
        return at;
    }
}
