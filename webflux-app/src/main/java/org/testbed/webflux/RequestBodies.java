package org.testbed.webflux;

import io.netty.handler.timeout.ReadTimeoutException;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeoutException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.testbed.http.BoundedBody;
import org.testbed.http.Response;
import org.testbed.server.ServerTuning;
import reactor.core.publisher.Mono;

/**
 * Request bodies read without blocking: buffers are copied as they arrive, on the event loop, and
 * released at once. Both reads go on past what they keep, up to {@link ServerTuning#DISCARD_LIMIT},
 * so that a refused body is off the wire before its answer, as on every other variant.
 */
final class RequestBodies {
    private RequestBodies() {
    }

    /** What arrived: the body (null when longer than the limit), or the failure that cut it off. */
    record ReadBody(byte[] bytes, boolean ended, Throwable failure) {
        boolean tooLarge() {
            return failure == null && bytes == null;
        }
    }

    /** Reads the body, keeping at most {@code maxBytes} of it. */
    static Mono<ReadBody> read(ServerHttpRequest request, int maxBytes) {
        long declared = contentLength(request.getHeaders());
        return Mono.defer(() -> {
            Collector collector = new Collector(maxBytes, declared);
            return request.getBody()
                    .<Void>handle((buffer, sink) -> {
                        collector.take(buffer);
                        if (collector.pastDiscardLimit()) {
                            sink.complete();    // too much to drop: the connection will close instead
                        }
                    })
                    .then(Mono.fromSupplier(collector::result))
                    .onErrorResume(failure -> Mono.just(new ReadBody(null, false, failure)));
        });
    }

    /**
     * Reads and drops the body of a request refused from its headers; completes once it has ended,
     * or with {@code false} when it is not worth reading (declared or found longer than
     * {@link ServerTuning#DISCARD_LIMIT}), or cannot be (its client waits for a {@code 100 Continue}
     * before sending it): then the connection must close after the answer.
     */
    static Mono<Boolean> discard(ServerHttpRequest request) {
        HttpHeaders headers = request.getHeaders();
        long declared = contentLength(headers);
        boolean chunked = headers.containsKey(HttpHeaders.TRANSFER_ENCODING);
        if (declared <= 0 && !chunked) {
            return Mono.just(true);
        }
        if (declared > ServerTuning.DISCARD_LIMIT || "100-continue".equalsIgnoreCase(headers.getFirst(HttpHeaders.EXPECT))) {
            return Mono.just(false);
        }
        return read(request, 0).map(ReadBody::ended);
    }

    /**
     * The answer to a body that failed to arrive: 408 when it stopped arriving for the idle timeout
     * (Reactor Netty's read timeout), else 400, as {@link BoundedBody#unreadable} gives every variant.
     */
    static Response unreadable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ReadTimeoutException) {
                return BoundedBody.unreadable(new TimeoutException("no byte of the body for the idle timeout"));
            }
        }
        return BoundedBody.unreadable(failure);
    }

    /** The declared length, or -1 when none (Netty has already refused a malformed one). */
    static long contentLength(HttpHeaders headers) {
        try {
            return headers.getContentLength();
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Copies up to {@code maxBytes}, counts everything, releases every buffer it is given. */
    private static final class Collector {
        private final int maxBytes;
        private final ByteArrayOutputStream kept;
        private long total;

        Collector(int maxBytes, long declared) {
            this.maxBytes = maxBytes;
            this.kept = new ByteArrayOutputStream((int) Math.max(0, Math.min(maxBytes, declared > 0 ? declared : 256)));
        }

        void take(DataBuffer buffer) {
            try {
                int length = buffer.readableByteCount();
                if (total + length <= maxBytes) {
                    byte[] bytes = new byte[length];
                    buffer.read(bytes);
                    kept.write(bytes, 0, length);
                }
                total += length;
            } finally {
                DataBufferUtils.release(buffer);
            }
        }

        boolean pastDiscardLimit() {
            return total > ServerTuning.DISCARD_LIMIT;
        }

        ReadBody result() {
            return new ReadBody(total > maxBytes ? null : kept.toByteArray(), !pastDiscardLimit(), null);
        }
    }
}
