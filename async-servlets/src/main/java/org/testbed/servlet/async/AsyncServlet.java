package org.testbed.servlet.async;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.service.Delay;
import org.testbed.service.ItemService;
import org.testbed.service.Responses;
import org.testbed.servlet.ServletSupport;

/**
 * The contract as a Servlet 3.1 asynchronous servlet: every request that waits (for Memcached, for
 * {@code /delay}) leaves {@code service} at once in async mode, holding no thread; the store's
 * callback or the one shared delay timer answers it later. Bodies are read and answers written with
 * non-blocking I/O ({@link BodyReader}, {@link AsyncExchange}). Answers that need no waiting
 * (plaintext, json, 404, 405, 400, 415) are written directly on the container thread.
 */
public final class AsyncServlet extends HttpServlet {
    private final transient ItemService items;
    private final long storeTimeoutMillis;

    /** {@code storeTimeoutMillis}: {@code MEMCACHED_TIMEOUT_MS}, the longest a store call takes. */
    public AsyncServlet(ItemService items, long storeTimeoutMillis) {
        this.items = items;
        this.storeTimeoutMillis = storeTimeoutMillis;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Routes.Route route = ServletSupport.route(request);
        Response rejected = ServletSupport.rejection(request, route);
        if (rejected != null) {
            reject(request, response, rejected);
            return;
        }
        switch (route.endpoint()) {
            case PLAINTEXT -> ServletSupport.write(response, Responses.plaintext());
            case JSON -> ServletSupport.write(response, Responses.json());
            case METRICS -> ServletSupport.write(response, items.metrics().scrape());
            case HEALTH -> AsyncExchange.start(request, response, storeTimeoutMillis).answerWhenDone(items.healthAsync());
            case DELAY -> delay(request, response);
            case ITEM -> item(request, response, route.id());
        }
    }

    /**
     * Answers a request refused from its headers alone. When a body is on its way, it is dropped
     * first, without blocking (see {@link BodyReader#discardThenAnswer}).
     */
    private void reject(HttpServletRequest request, HttpServletResponse response, Response rejected)
            throws IOException {
        if (ServletSupport.hasBody(request)) {
            BodyReader.discardThenAnswer(request, AsyncExchange.start(request, response, storeTimeoutMillis), rejected);
        } else {
            ServletSupport.write(response, rejected);
        }
    }

    private void delay(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Delay delay = Delay.parse(request.getParameter("ms"));
        if (delay.rejection() != null) {
            ServletSupport.write(response, delay.rejection());
            return;
        }
        AsyncExchange exchange = AsyncExchange.start(request, response, delay.millis());
        delay.schedule(() -> exchange.answer(Responses.delayDone()));
    }

    private void item(HttpServletRequest request, HttpServletResponse response, String id) throws IOException {
        String method = request.getMethod();
        if (method.equals("GET")) {
            AsyncExchange.start(request, response, storeTimeoutMillis).answerWhenDone(items.readAsync(id));
            return;
        }
        if (method.equals("DELETE")) {
            AsyncExchange.start(request, response, storeTimeoutMillis).answerWhenDone(items.deleteAsync(id));
            return;
        }
        String contentType = request.getContentType();
        Response rejected = items.rejectBeforeBody(id, contentType, request.getContentLengthLong());
        if (rejected != null) {
            reject(request, response, rejected);
            return;
        }
        boolean create = method.equals("PUT");
        String ifMatch = request.getHeader("If-Match");
        // The async timeout runs from here, so it covers receiving the body too: ample for 64 KiB.
        AsyncExchange exchange = AsyncExchange.start(request, response, storeTimeoutMillis);
        BodyReader.read(request, items.maxBody(), exchange, items.tooLarge(), body -> exchange.answerWhenDone(create
                ? items.createAsync(id, contentType, body)
                : items.updateAsync(id, contentType, body, ifMatch)));
    }
}
