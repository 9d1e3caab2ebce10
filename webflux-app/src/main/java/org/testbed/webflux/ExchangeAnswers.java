package org.testbed.webflux;

import io.netty.channel.EventLoop;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.testbed.config.TestbedConfig;
import org.testbed.http.Response;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

/**
 * Copies a shared {@link Response} onto a WebFlux exchange: status, headers, the bytes as they are.
 *
 * <p>Written onto the response directly rather than returned as a {@code ResponseEntity}: WebFlux
 * would then answer conditional requests itself from the entity's ETag (a GET with a stale
 * {@code If-Match} would become an empty 412, one with {@code If-None-Match} a 304), where every
 * variant leaves preconditions to the service, and negotiate a content type the service has fixed.
 */
final class ExchangeAnswers {
    private final boolean gzip;

    ExchangeAnswers(boolean gzip) {
        this.gzip = gzip;
    }

    /**
     * Sends the answer of an asynchronous service call once it is there; no thread waits for it.
     * Memcached's reply completes the future on the store's own thread, and the answer hops from
     * there back onto the connection's event loop before it is written, as on Vert.x: Reactor
     * Netty's bookkeeping of a keep-alive connection (the end of this request, the start of the
     * next) belongs to that loop, and answers written from the store's thread left about one
     * request in a thousand unanswered.
     */
    Mono<Void> reply(ServerWebExchange exchange, CompletableFuture<Response> pending) {
        Response done = pending.getNow(null);
        if (done != null) {
            return send(exchange, done);    // refused before Memcached: already on the event loop
        }
        EventLoop eventLoop = eventLoopOf(exchange);
        return Mono.<Response>create(sink -> pending.whenComplete((answer, failure) -> eventLoop.execute(() -> {
            if (failure == null) {
                sink.success(answer);
            } else {    // ItemService promises this never happens; ProblemExceptionHandler makes it a 500
                sink.error(failure);
            }
        }))).flatMap(answer -> send(exchange, answer));
    }

    /** Sends {@code answer} after {@code millis}, from a timer of the connection's own event loop. */
    Mono<Void> later(ServerWebExchange exchange, long millis, Response answer) {
        EventLoop eventLoop = eventLoopOf(exchange);
        return Mono.<Response>create(sink -> eventLoop.schedule(() -> sink.success(answer), millis, TimeUnit.MILLISECONDS))
                .flatMap(delayed -> send(exchange, delayed));
    }

    /** The event loop of the exchange's connection: Reactor Netty's request is that connection. */
    private static EventLoop eventLoopOf(ServerWebExchange exchange) {
        Connection connection = ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest());
        return connection.channel().eventLoop();
    }

    /** An answer decided from the headers alone: the body, if any, is read and dropped first. */
    Mono<Void> refuse(ServerWebExchange exchange, Response answer) {
        return RequestBodies.discard(exchange.getRequest()).flatMap(drained -> {
            if (!drained) {
                closeAfter(exchange.getResponse());
            }
            return send(exchange, answer);
        });
    }

    Mono<Void> send(ServerWebExchange exchange, Response answer) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatusCode.valueOf(answer.status()));
        HttpHeaders headers = response.getHeaders();
        if (answer.contentType() != null) {
            headers.set(HttpHeaders.CONTENT_TYPE, answer.contentType());
        }
        answer.forEachHeader(headers::set);
        byte[] body = answer.body();
        if (body.length == 0) {
            return response.setComplete();
        }
        headers.setContentLength(body.length);
        if (gzip && body.length >= TestbedConfig.GZIP_MIN_BYTES) {
            // Netty's compressor adds no Vary; Tomcat and Jetty do on the answers they would compress.
            headers.add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
        }
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }

    /** The request's connection cannot carry another one: Reactor Netty closes it after this answer. */
    static void closeAfter(ServerHttpResponse response) {
        response.getHeaders().set(HttpHeaders.CONNECTION, "close");
    }
}
