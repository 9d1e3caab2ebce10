package org.testbed.helidon;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.testbed.http.BoundedBody;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.server.ServerTuning;
import org.testbed.service.Delay;
import org.testbed.service.ItemService;
import org.testbed.service.Metrics;
import org.testbed.service.Responses;

/**
 * The contract as one blocking Helidon handler, for every method and path: it routes on the raw,
 * undecoded path with {@link Routes#match} (so 404 and 405 with {@code Allow} are the shared ones,
 * with no trailing-slash, dot-segment or HEAD leniency of Helidon's router), reads the body on the
 * request's virtual thread and calls the synchronous {@link ItemService}, which blocks that thread
 * on Memcached. Nothing here is asynchronous: a blocked virtual thread costs no platform thread.
 */
final class ContractHandler implements Handler {
    private final ItemService items;
    private final Metrics metrics;
    private final AnswerWriter writer;

    ContractHandler(ItemService items, boolean gzip) {
        this.items = items;
        this.metrics = items.metrics();
        this.writer = new AnswerWriter(gzip);
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        long start = metrics.start();
        String method = request.prologue().method().text();
        String path = request.path().rawPath();
        Exchange exchange = new Exchange(request, response);
        Response answer = answer(exchange, method, path);
        writer.write(request, response, answer, exchange.mustClose);
        if (metrics.enabled()) {
            metrics.record(method, path, answer.status(), start);
        }
    }

    /** One request's state: whether its connection can carry another request after the answer. */
    private static final class Exchange {
        final ServerRequest request;
        final ServerResponse response;
        boolean mustClose;

        Exchange(ServerRequest request, ServerResponse response) {
            this.request = request;
            this.response = response;
        }
    }

    private Response answer(Exchange exchange, String method, String path) {
        ServerRequest request = exchange.request;
        if (!hasOneHost(request)) {
            exchange.mustClose = true;
            return Response.problem(400, "The request must have exactly one Host header.");
        }
        Routes.Route route = Routes.match(path);
        if (route == null) {
            return refuse(exchange, Routes.notFound(path));
        }
        if (!route.endpoint().allows(method)) {
            return refuse(exchange, Response.methodNotAllowed(method, route.endpoint().allow()));
        }
        return switch (route.endpoint()) {
            case PLAINTEXT -> Responses.plaintext();
            case JSON -> Responses.json();
            case HEALTH -> items.health();
            case METRICS -> metrics.scrape();
            case DELAY -> delay(request);
            case ITEM -> item(exchange, method, route.id());
        };
    }

    private static Response delay(ServerRequest request) {
        String ms;
        try {
            ms = request.query().contains("ms") ? request.query().get("ms") : null;
        } catch (RuntimeException badEncoding) {
            return Response.problem(400, "The query string is not valid percent-encoding.");
        }
        Delay delay = Delay.parse(ms);
        return delay.rejection() != null ? delay.rejection() : delay.sleep();
    }

    private Response item(Exchange exchange, String method, String id) {
        ServerRequest request = exchange.request;
        switch (method) {
            case "GET":
                return items.read(id);
            case "DELETE":
                return items.delete(id);
            default:
                break;
        }
        String contentType = request.headers().first(HeaderNames.CONTENT_TYPE).orElse(null);
        long length = request.headers().contentLength().orElse(-1);
        Response rejected = items.rejectBeforeBody(id, contentType, length);
        if (rejected != null) {
            return refuse(exchange, rejected);
        }
        byte[] body;
        try {
            body = BoundedBody.read(request.content().inputStream(), length, items.maxBody());
        } catch (IOException | RuntimeException unreadable) {
            // Broken chunk framing, or a client that went away or was cut by the idle timeout: this
            // connection cannot carry another request, and the rest of the body is not waited for.
            exchange.mustClose = true;
            return BoundedBody.unreadable(unwrapped(unreadable));
        }
        if (body == null) {
            return refuse(exchange, items.tooLarge());
        }
        if (method.equals("PUT")) {
            return items.create(id, contentType, body);
        }
        return items.update(id, contentType, body, request.headers().first(HeaderNames.IF_MATCH).orElse(null));
    }

    /**
     * A request refused from its headers alone, or over the body limit: whatever is left of its body
     * is read and dropped first, up to {@link ServerTuning#DISCARD_LIMIT}, so that the connection is
     * not closed over unread bytes (the reset that follows can destroy the answer); past that, or
     * when the client waits for {@code 100 Continue} before sending a body it will now never send,
     * the connection is closed after the answer.
     */
    private static Response refuse(Exchange exchange, Response refusal) {
        ServerRequest request = exchange.request;
        if (!request.content().hasEntity() || request.content().consumed()) {
            return refusal;
        }
        if (request.headers().contains(HeaderNames.EXPECT)) {
            exchange.mustClose = true;
            return refusal;
        }
        long length = request.headers().contentLength().orElse(-1);
        try (InputStream in = request.content().inputStream()) {
            if (!BoundedBody.discard(in, length, ServerTuning.DISCARD_LIMIT)) {
                exchange.mustClose = true;
            }
        } catch (IOException | RuntimeException unreadable) {
            exchange.mustClose = true;
        }
        return refusal;
    }

    /**
     * RFC 9112: an HTTP/1.1 request with no Host, or with more than one, is a 400; HTTP/1.0 needs
     * none. Helidon checks it too while its request header validation is on (the default), before
     * the handler; this keeps the rule whatever that setting.
     */
    private static boolean hasOneHost(ServerRequest request) {
        List<String> hosts = request.headers().all(HeaderNames.HOST, List::of);
        return hosts.size() == 1 || hosts.isEmpty() && "1.0".equals(request.prologue().protocolVersion());
    }

    private static Throwable unwrapped(Throwable failure) {
        return failure instanceof UncheckedIOException unchecked && unchecked.getCause() != null
                ? unchecked.getCause() : failure;
    }
}
