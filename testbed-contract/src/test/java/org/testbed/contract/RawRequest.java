package org.testbed.contract;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTTP/1.1 request built byte by byte, for what the JDK client will not send: control
 * characters or raw UTF-8 in the target, header values it rejects, duplicate or conflicting
 * framing headers, methods such as TRACE, a target it would normalize ({@code /a/../b}).
 * {@code Host} comes first; {@code Content-Length} is added for a body unless the request sets
 * its own framing.
 */
final class RawRequest {
    private final String method;
    private final byte[] target;
    private final List<byte[]> headers = new ArrayList<>();
    private byte[] body;
    private boolean framed;

    private RawRequest(String method, byte[] target, String host) {
        this.method = method;
        this.target = target;
        header("Host", host);
    }

    /** {@code target} as UTF-8 bytes, whatever characters it holds. */
    static RawRequest of(String method, String target, String host) {
        return new RawRequest(method, target.getBytes(StandardCharsets.UTF_8), host);
    }

    String method() {
        return method;
    }

    /** The value as ISO-8859-1 bytes, so every char up to U+00FF is sent as that one byte. */
    RawRequest header(String name, String value) {
        headers.add((name + ": " + value).getBytes(StandardCharsets.ISO_8859_1));
        if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")) {
            framed = true;
        }
        return this;
    }

    RawRequest body(byte[] bytes) {
        this.body = bytes;
        return this;
    }

    byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(method.getBytes(StandardCharsets.US_ASCII));
        out.write(' ');
        out.writeBytes(target);
        out.writeBytes(" HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
        for (byte[] header : headers) {
            out.writeBytes(header);
            out.writeBytes(new byte[] {'\r', '\n'});
        }
        if (body != null && !framed) {
            out.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes(new byte[] {'\r', '\n'});
        if (body != null) {
            out.writeBytes(body);
        }
        return out.toByteArray();
    }
}
