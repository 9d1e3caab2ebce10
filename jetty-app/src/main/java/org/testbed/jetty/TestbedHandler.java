package org.testbed.jetty;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.testbed.http.BoundedBody;
import org.testbed.http.Routes;
import org.testbed.containers.jetty.JettyServers;
import org.testbed.service.Delay;
import org.testbed.service.ItemService;
import org.testbed.service.Responses;

/**
 * The contract on Jetty 12's core API, no servlet layer: {@link #handle} routes on the raw path,
 * starts whatever the request waits for (the body, Memcached, the delay timer) and returns at once;
 * the answer is written later, without blocking, from the thread that has it, and the write
 * completes Jetty's {@link Callback}. No thread is held while a request waits.
 *
 * <p>Declared blocking (Jetty's default), although it never waits: {@code ItemService}'s async
 * methods parse JSON and may briefly block to enqueue when a hung Memcached's queue is full, work
 * that should not run on a selector thread. Jetty then hands each request to a pool thread, which
 * returns as soon as {@code handle} does.
 */
public final class TestbedHandler extends Handler.Abstract {
    private final ItemService items;

    public TestbedHandler(ItemService items) {
        this.items = items;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath(); // raw, still percent-encoded
        String method = request.getMethod();
        Routes.Route route = Routes.match(path);
        if (route == null) {
            return reject(request, response, callback, Routes.notFound(path));
        }
        if (!route.endpoint().allows(method)) {
            return reject(request, response, callback,
                    org.testbed.http.Response.methodNotAllowed(method, route.endpoint().allow()));
        }
        switch (route.endpoint()) {
            case PLAINTEXT -> answer(response, callback, Responses.plaintext());
            case JSON -> answer(response, callback, Responses.json());
            case HEALTH -> items.healthAsync().thenAccept(answer -> answer(response, callback, answer));
            case METRICS -> answer(response, callback, items.metrics().scrape());
            case DELAY -> delay(request, response, callback);
            case ITEM -> item(request, response, callback, route.id());
        }
        return true;
    }

    private void delay(Request request, Response response, Callback callback) {
        Delay delay = Delay.parse(queryParameter(request, "ms"));
        if (delay.rejection() != null) {
            answer(response, callback, delay.rejection());
        } else {
            delay.schedule(() -> answer(response, callback, Responses.delayDone()));
        }
    }

    private void item(Request request, Response response, Callback callback, String id) {
        String method = request.getMethod();
        if (method.equals("GET")) {
            items.readAsync(id).thenAccept(answer -> answer(response, callback, answer));
            return;
        }
        if (method.equals("DELETE")) {
            items.deleteAsync(id).thenAccept(answer -> answer(response, callback, answer));
            return;
        }
        String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        long length = request.getLength();
        org.testbed.http.Response rejected = items.rejectBeforeBody(id, contentType, length);
        if (rejected != null) {
            reject(request, response, callback, rejected);
            return;
        }
        boolean create = method.equals("PUT");
        String ifMatch = request.getHeaders().get(HttpHeader.IF_MATCH);
        BoundedContent.read(request, length, items.maxBody(), new BoundedContent.Sink() {
            @Override
            public void body(byte[] body) {
                (create ? items.createAsync(id, contentType, body) : items.updateAsync(id, contentType, body, ifMatch))
                        .thenAccept(answer -> answer(response, callback, answer));
            }

            @Override
            public void tooLarge() {
                answer(response, callback, items.tooLarge());
            }

            @Override
            public void failed(Throwable failure) {
                answer(response, callback, BoundedBody.unreadable(failure));
            }
        });
    }

    /** The raw query parameter, decoded; null when absent or when the query cannot be decoded. */
    private static String queryParameter(Request request, String name) {
        if (request.getHttpURI().getQuery() == null) {
            return null;
        }
        try {
            Fields fields = Request.extractQueryParameters(request);
            return fields.getValue(name);
        } catch (RuntimeException badEncoding) {
            return null;
        }
    }

    /** Answers a request refused from its headers alone, once its body (if any) has been dropped. */
    private static boolean reject(Request request, Response response, Callback callback,
                                  org.testbed.http.Response rejected) {
        BoundedContent.discard(request, request.getLength(), () -> answer(response, callback, rejected));
        return true;
    }

    private static boolean answer(Response response, Callback callback, org.testbed.http.Response answer) {
        JettyServers.write(response, answer, callback);
        return true;
    }
}
