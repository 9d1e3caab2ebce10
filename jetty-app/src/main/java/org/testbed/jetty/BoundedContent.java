package org.testbed.jetty;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.io.Content;

/**
 * Reads a request's content asynchronously, at most {@code maxBytes}: {@link Content.Source#read()}
 * until a chunk is there, {@link Content.Source#demand(Runnable)} to be called back when more
 * arrives, so no thread waits for a slow client. Like {@code Content.Source.asByteArrayAsync(source,
 * max)}, but an over-long body is told apart from a broken connection (413, not 400) and the
 * source is left as it is, so the 413 can still be written.
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

    private BoundedContent(Content.Source source, long length, int maxBytes, Sink sink) {
        this.source = source;
        this.maxBytes = maxBytes;
        this.sink = sink;
        // A declared length (checked against the limit before) sizes the buffer: one copy, no growth.
        this.bytes = new byte[length >= 0 ? (int) length : Math.min(maxBytes, 1024)];
    }

    /** Starts reading; {@code length} is the declared {@code Content-Length}, or -1. */
    static void read(Content.Source source, long length, int maxBytes, Sink sink) {
        new BoundedContent(source, length, maxBytes, sink).run();
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
                sink.failed(chunk.getFailure());
                return;
            }
            ByteBuffer buffer = chunk.getByteBuffer();
            int n = buffer.remaining();
            if (size + n > maxBytes) {
                chunk.release();
                sink.tooLarge();
                return;
            }
            if (size + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.min(maxBytes, Math.max(size + n, bytes.length * 2)));
            }
            buffer.get(bytes, size, n);
            size += n;
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                sink.body(size == bytes.length ? bytes : Arrays.copyOf(bytes, size));
                return;
            }
        }
    }
}
