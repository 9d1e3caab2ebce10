package org.testbed.servlet.async;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.Consumer;
import org.testbed.http.Response;

/**
 * Reads a request body with Servlet 3.1 non-blocking I/O, at most {@code maxBody} bytes: no thread
 * waits for a slow client's bytes, each chunk is read on a container thread when it has arrived.
 * A body over the limit (possible only when chunked, since the declared length was checked before)
 * is answered 413 at once, without reading the rest.
 */
final class BodyReader implements ReadListener {
    private static final int CHUNK = 8192;

    private final ServletInputStream in;
    private final int maxBody;
    private final AsyncExchange exchange;
    private final Response tooLarge;
    private final Consumer<byte[]> then;
    private final ByteArrayOutputStream body;
    private final byte[] chunk;
    private boolean done;

    private BodyReader(ServletInputStream in, long length, int maxBody, AsyncExchange exchange, Response tooLarge,
                       Consumer<byte[]> then) {
        this.in = in;
        this.maxBody = maxBody;
        this.exchange = exchange;
        this.tooLarge = tooLarge;
        this.then = then;
        // A declared length (at most maxBody, checked before) sizes both buffers: one copy, no growth.
        int expected = length >= 0 ? (int) length : Math.min(maxBody, CHUNK);
        this.body = new ByteArrayOutputStream(expected);
        this.chunk = new byte[Math.max(1, Math.min(CHUNK, expected))];
    }

    /**
     * Starts reading the body of {@code request} (already in async mode); calls {@code then} with
     * the whole body on a container thread, or answers 413 or 400 through {@code exchange}.
     */
    static void read(HttpServletRequest request, int maxBody, AsyncExchange exchange, Response tooLarge,
                     Consumer<byte[]> then) throws IOException {
        ServletInputStream in = request.getInputStream();
        in.setReadListener(new BodyReader(in, request.getContentLengthLong(), maxBody, exchange, tooLarge, then));
    }

    @Override
    public void onDataAvailable() throws IOException {
        while (!done && in.isReady()) {
            int n = in.read(chunk);
            if (n < 0) {
                return; // end of body: onAllDataRead follows
            }
            if (body.size() + n > maxBody) {
                done = true;
                exchange.answer(tooLarge);
                return;
            }
            body.write(chunk, 0, n);
        }
    }

    @Override
    public void onAllDataRead() {
        if (!done) {
            done = true;
            then.accept(body.toByteArray());
        }
    }

    @Override
    public void onError(Throwable failure) {
        if (!done) {
            done = true;
            exchange.answer(Response.problem(400, "The request body could not be read: " + failure.getMessage()));
        }
    }
}
