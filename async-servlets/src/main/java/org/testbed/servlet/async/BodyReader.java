package org.testbed.servlet.async;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.Consumer;
import org.testbed.http.BoundedBody;
import org.testbed.http.Response;
import org.testbed.server.ServerTuning;

/**
 * Reads a request body with Servlet 3.1 non-blocking I/O, at most {@code maxBody} bytes: no thread
 * waits for a slow client's bytes, each chunk is read on a container thread when it has arrived.
 *
 * <p>A body that is refused (over the limit while chunked, or refused from the headers alone) is
 * still read to its end and dropped, up to {@link ServerTuning#DISCARD_LIMIT}, before the answer
 * goes out: closing a connection over unread bytes resets it, and the reset can destroy the answer
 * before the client reads it.
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
    /** Once set, the body is being dropped and this is the answer sent when it ends. */
    private Response afterDiscard;
    private long discarded;
    private boolean done;

    private BodyReader(ServletInputStream in, long length, int maxBody, AsyncExchange exchange, Response tooLarge,
                       Consumer<byte[]> then) {
        this.in = in;
        this.maxBody = maxBody;
        this.exchange = exchange;
        this.tooLarge = tooLarge;
        this.then = then;
        // A declared length (at most maxBody, checked before) sizes both buffers: one copy, no growth.
        int expected = length >= 0 ? (int) Math.min(length, maxBody) : Math.min(maxBody, CHUNK);
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

    /**
     * Drops the body of {@code request} (already in async mode), then sends {@code answer}; at once
     * when the body is declared longer than {@link ServerTuning#DISCARD_LIMIT}.
     */
    static void discardThenAnswer(HttpServletRequest request, AsyncExchange exchange, Response answer)
            throws IOException {
        if (request.getContentLengthLong() > ServerTuning.DISCARD_LIMIT) {
            exchange.answer(answer);
            return;
        }
        ServletInputStream in = request.getInputStream();
        BodyReader reader = new BodyReader(in, -1, CHUNK, exchange, answer, body -> { });
        reader.afterDiscard = answer;
        in.setReadListener(reader);
    }

    @Override
    public void onDataAvailable() throws IOException {
        while (!done && in.isReady()) {
            int n = in.read(chunk);
            if (n < 0) {
                return; // end of body: onAllDataRead follows
            }
            if (afterDiscard != null) {
                discarded += n;
                if (discarded > ServerTuning.DISCARD_LIMIT) {
                    finish(afterDiscard); // not worth reading further; the connection will close
                }
            } else if (body.size() + n > maxBody) {
                afterDiscard = tooLarge;
                discarded = body.size() + n;
            } else {
                body.write(chunk, 0, n);
            }
        }
    }

    @Override
    public void onAllDataRead() {
        if (afterDiscard != null) {
            finish(afterDiscard);
        } else if (!done) {
            done = true;
            then.accept(body.toByteArray());
        }
    }

    @Override
    public void onError(Throwable failure) {
        finish(BoundedBody.unreadable(failure));
    }

    private void finish(Response answer) {
        if (!done) {
            done = true;
            exchange.answer(answer);
        }
    }
}
