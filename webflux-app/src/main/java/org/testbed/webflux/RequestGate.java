package org.testbed.webflux;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.testbed.http.HttpDate;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.item.ItemId;
import org.testbed.server.ServerTuning;

/**
 * Answers, below WebFlux, the requests WebFlux cannot be given, with the contract's problem bodies
 * where Reactor Netty and WebFlux would send an empty 400:
 * <ul>
 *   <li>a request Netty could not parse (bad request line, header or framing): 400, or 414 and
 *       431 for a request line or headers too long, as the vertx variant on the same Netty;</li>
 *   <li>an HTTP/1.1 request without exactly one {@code Host} (RFC 9112), which Netty does not
 *       check, or with a {@code Host} that is no URI authority;</li>
 *   <li>a request target {@link URI} refuses (a control character, {@code |}, {@code "} ...):
 *       WebFlux makes a {@code URI} of every request and cannot take one it fails on, so the answer
 *       is the one {@link Routes} and {@link ItemId} give every variant for that raw path: 404,
 *       405 with {@code Allow}, or the id's 400.</li>
 * </ul>
 * The body of such a request is read and dropped before the answer (up to
 * {@link ServerTuning#DISCARD_LIMIT}), and the connection is closed after it: what follows on it
 * cannot be trusted. With {@code TESTBED_GZIP} on, the gate also leaves in a request's
 * {@code Accept-Encoding} only its gzip, the one coding the contract allows, since Netty's
 * compressor would pick deflate or snappy for a client that names them.
 * One gate per connection; Netty calls it on the connection's event loop only.
 */
final class RequestGate extends ChannelInboundHandlerAdapter {
    static final String NAME = "testbed.requestGate";

    private final boolean gzipOnly;
    /** The answer of a refused request, sent once its body has been dropped. */
    private Response refusal;
    private long dropped;
    private boolean closing;

    RequestGate(boolean gzipOnly) {
        this.gzipOnly = gzipOnly;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (refusal == null && msg instanceof HttpRequest request) {
            refusal = refusalOf(request);
            if (refusal != null && (request.decoderResult().isFailure() || !worthDraining(request))) {
                ReferenceCountUtil.release(msg);
                answer(ctx);
                return;
            }
        }
        if (refusal == null && msg instanceof HttpContent content && content.decoderResult().isFailure()) {
            // Broken body framing (a bad chunk size), found after the request went to the
            // application: the rest of the stream cannot be read, so the connection closes without
            // an answer, as on Vert.x and Tomcat's non-blocking reads (docs/CONTRACT.md).
            ReferenceCountUtil.release(msg);
            closing = true;
            ctx.close();
            return;
        }
        if (refusal == null) {
            if (gzipOnly && msg instanceof HttpRequest request) {
                acceptGzipOnly(request.headers());
            }
            ctx.fireChannelRead(msg);
            return;
        }
        if (msg instanceof HttpContent content) {
            dropped += content.content().readableBytes();
        }
        boolean ended = msg instanceof LastHttpContent;
        ReferenceCountUtil.release(msg);
        if (ended || dropped > ServerTuning.DISCARD_LIMIT) {
            answer(ctx);
        }
    }

    /** The answer to give in place of the application, or null to pass the request on. */
    static Response refusalOf(HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            return undecodable(request.decoderResult().cause());
        }
        int hosts = request.headers().getAll(HttpHeaderNames.HOST).size();
        if (hosts > 1 || hosts == 0 && request.protocolVersion() != HttpVersion.HTTP_1_0) {
            return Response.problem(400, "The request must have exactly one Host header.");
        }
        if (hosts == 1 && !isAuthority(request.headers().get(HttpHeaderNames.HOST))) {
            return Response.problem(400, "The Host header is not a valid host and port.");
        }
        String target = request.uri();
        if (isUri(target)) {
            return null;
        }
        if (!target.startsWith("/")) {
            return Response.problem(400, "The request target is not a valid URI.");
        }
        String path = target.indexOf('?') >= 0 ? target.substring(0, target.indexOf('?')) : target;
        Routes.Route route = Routes.match(path);
        if (route == null) {
            return Routes.notFound(path);
        }
        String method = request.method().name();
        if (!route.endpoint().allows(method)) {
            return Response.methodNotAllowed(method, route.endpoint().allow());
        }
        String badId = route.id() == null ? null : ItemId.problemWith(route.id());
        return Response.problem(400, badId != null ? badId : "The request target is not a valid URI.");
    }

    /** Keeps the {@code gzip} elements of {@code Accept-Encoding} (with their q), drops the header if none. */
    static void acceptGzipOnly(HttpHeaders headers) {
        List<String> values = headers.getAll(HttpHeaderNames.ACCEPT_ENCODING);
        if (values.isEmpty()) {
            return;
        }
        String gzip = values.stream()
                .flatMap(value -> Arrays.stream(value.split(",")))
                .map(String::trim)
                .filter(coding -> coding.split(";", 2)[0].trim().equalsIgnoreCase("gzip"))
                .collect(Collectors.joining(", "));
        if (gzip.isEmpty()) {
            headers.remove(HttpHeaderNames.ACCEPT_ENCODING);
        } else {
            headers.set(HttpHeaderNames.ACCEPT_ENCODING, gzip);
        }
    }

    private static Response undecodable(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return Response.problem(414, "The request line is too long.");
        }
        if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException) {
            return Response.problem(431, "The request headers are too large.");
        }
        return Response.problem(400, "The request is not valid HTTP/1.1.");
    }

    /** Whether WebFlux can make a URI of this target, as it does of every request. */
    private static boolean isUri(String target) {
        try {
            new URI(target.startsWith("/") ? "http://localhost" + target : target);
            return true;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static boolean isAuthority(String host) {
        try {
            return new URI("http://" + host + "/").getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** Whether the body can be read before the answer: declared small enough, and no 100 Continue awaited. */
    private static boolean worthDraining(HttpRequest request) {
        long declared = HttpUtil.getContentLength(request, -1L);
        return declared <= ServerTuning.DISCARD_LIMIT && !HttpUtil.is100ContinueExpected(request);
    }

    private void answer(ChannelHandlerContext ctx) {
        Response answer = refusal;
        closing = true;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(answer.body()));
        HttpHeaders headers = response.headers();
        headers.set(HttpHeaderNames.SERVER, ServerTuning.SERVER_HEADER);
        headers.set(HttpHeaderNames.DATE, HttpDate.now());
        headers.set(HttpHeaderNames.CONTENT_TYPE, answer.contentType());
        headers.set(HttpHeaderNames.CONTENT_LENGTH, answer.body().length);
        headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        answer.forEachHeader(headers::set);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
}
