package org.testbed.jetty;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.io.Content;
import org.testbed.server.ServerTuning;

/**
 * Reads a request's content asynchronously, at most {@code maxBytes}: {@link Content.Source#read()}
 * until a chunk is there, {@link Content.Source#demand(Runnable)} to be called back when more
 * arrives, so no thread waits for a slow client. Like {@code Content.Source.asByteArrayAsync(source,
 * max)}, but an over-long body is told apart from a broken connection (413, not 400).
 *
 * <p>A refused body (over the limit, or refused from the headers alone) is read to its end and
 * dropped, up to {@link ServerTuning#DISCARD_LIMIT}, before the answer: when Jetty closes a
 * connection over unread bytes the kernel resets it, and the reset can destroy the answer before the
 * client reads it (one oversized PUT in twenty lost its 413 that way).
 */
final class BoundedContent implements Runnable {
    /** What becomes of the body: exactly one of these is called, once. */
    interface Sink {
        void body(byte[] body);

        void tooLarge();

        void failed(Throwable failure);
    }

    private final Content.Source source;
    private final int maxBytes;
    private final Sink sink;
    private byte[] bytes;
    private int size;
    /** Set once the body is only being dropped: what to do when it has ended (or gone too far). */
    private Runnable afterDiscard;
    private long discarded;

    private BoundedContent(Content.Source source, long length, int maxBytes, Sink sink) {
        this.source = source;
        this.maxBytes = maxBytes;
        this.sink = sink;
        // A declared length (checked against the limit before) sizes the buffer: one copy, no growth.
        this.bytes = new byte[length >= 0 ? (int) Math.min(length, maxBytes) : Math.min(maxBytes, 1024)];
    }

    /** Starts reading; {@code length} is the declared {@code Content-Length}, or -1. */
    static void read(Content.Source source, long length, int maxBytes, Sink sink) {
        new BoundedContent(source, length, maxBytes, sink).run();
    }

    /**
     * Drops the content, then runs {@code then}; at once when the declared {@code length} is over
     * {@link ServerTuning#DISCARD_LIMIT} or the content is already complete.
     */
    static void discard(Content.Source source, long length, Runnable then) {
        if (length == 0 || length > ServerTuning.DISCARD_LIMIT) {
            then.run();
            return;
        }
        BoundedContent reader = new BoundedContent(source, 0, 0, null);
        reader.afterDiscard = then;
        reader.run();
    }

    @Override
    public void run() {
        while (true) {
            Content.Chunk chunk = source.read();
            if (chunk == null) {
                source.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                if (afterDiscard != null) {
                    afterDiscard.run();
                } else {
                    sink.failed(chunk.getFailure());
                }
                return;
            }
            ByteBuffer buffer = chunk.getByteBuffer();
            int n = buffer.remaining();
            boolean last = chunk.isLast();
            if (afterDiscard == null && size + n > maxBytes) {
                afterDiscard = sink::tooLarge;
                discarded = size;
            }
            if (afterDiscard != null) {
                chunk.release();
                discarded += n;
                if (last || discarded > ServerTuning.DISCARD_LIMIT) {
                    afterDiscard.run();
                    return;
                }
                continue;
            }
            if (size + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.min(maxBytes, Math.max(size + n, bytes.length * 2)));
            }
            buffer.get(bytes, size, n);
            size += n;
            chunk.release();
            if (last) {
                sink.body(size == bytes.length ? bytes : Arrays.copyOf(bytes, size));
                return;
            }
        }
    }
}
