package org.testbed.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads a blocking request body while enforcing the body limit ({@code TESTBED_MAX_BODY}). */
public final class BoundedBody {
    private BoundedBody() {
    }

    /**
     * Reads at most {@code maxBytes}; returns null when the body is longer (the caller answers 413).
     * {@code contentLength} (or -1 when unknown, e.g. chunked) sizes the buffer and short-cuts the
     * check without reading.
     */
    public static byte[] read(InputStream in, long contentLength, int maxBytes) throws IOException {
        if (contentLength > maxBytes) {
            return null;
        }
        if (contentLength >= 0) {
            byte[] body = in.readNBytes((int) contentLength);
            return body.length == contentLength ? body : truncated(body.length, contentLength);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxBytes, 8192));
        byte[] chunk = new byte[8192];
        int total = 0;
        int n;
        while ((n = in.read(chunk)) != -1) {
            total += n;
            if (total > maxBytes) {
                return null;
            }
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }

    /**
     * Reads and drops what is left of a body, stopping after {@code limit} bytes; returns whether
     * the body ended within it. A body declared longer than the limit is not read at all. Used
     * before answering a request whose body was refused: see {@code ServerTuning.DISCARD_LIMIT}.
     */
    public static boolean discard(InputStream in, long contentLength, long limit) throws IOException {
        if (contentLength > limit) {
            return false;
        }
        byte[] chunk = new byte[8192];
        long total = 0;
        int n;
        while ((n = in.read(chunk)) != -1) {
            total += n;
            if (total > limit) {
                return false;
            }
        }
        return true;
    }

    private static byte[] truncated(int got, long expected) throws IOException {
        throw new IOException("request body ended after " + got + " of " + expected + " bytes");
    }
}
