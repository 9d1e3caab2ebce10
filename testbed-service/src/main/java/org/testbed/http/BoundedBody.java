package org.testbed.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.channels.InterruptedByTimeoutException;
import java.util.concurrent.TimeoutException;

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

    /**
     * The answer to a body that failed to arrive. A read that timed out means the client stopped
     * sending for the idle timeout ({@code TESTBED_IDLE_TIMEOUT_MS}): 408, and the caller must not
     * wait for the rest of the body (to drain it, say), which would hold the connection, and on a
     * blocking variant a worker thread, for another idle timeout. Anything else (the client went
     * away, or sent less than it declared) is 400. The connection cannot carry another request.
     */
    public static Response unreadable(Throwable failure) {
        if (timedOut(failure)) {
            return Response.problem(408, "The request body stopped arriving: the connection was idle too long.");
        }
        return Response.problem(400, "The request body could not be read: " + failure.getMessage());
    }

    /**
     * Whether {@code failure} is, or is caused by, a read timeout as the containers report it:
     * Tomcat a {@link SocketTimeoutException}, Jetty a {@link TimeoutException}, NIO2 an
     * {@link InterruptedByTimeoutException}, each possibly wrapped in an {@code IOException}.
     */
    public static boolean timedOut(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SocketTimeoutException || t instanceof TimeoutException
                    || t instanceof InterruptedByTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static byte[] truncated(int got, long expected) throws IOException {
        throw new IOException("request body ended after " + got + " of " + expected + " bytes");
    }
}
