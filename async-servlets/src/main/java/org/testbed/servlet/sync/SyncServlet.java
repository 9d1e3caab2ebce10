package org.testbed.servlet.sync;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.testbed.http.BoundedBody;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.service.Delay;
import org.testbed.service.ItemService;
import org.testbed.service.Responses;
import org.testbed.servlet.ServletSupport;

/**
 * The contract as a plain blocking servlet: the container thread (a platform worker in mode sync,
 * a virtual thread in mode virtual) reads the body, waits for Memcached and sleeps through
 * {@code /delay}. Mapped to {@code /*}: it routes by itself, on the raw path.
 */
public final class SyncServlet extends HttpServlet {
    private final transient ItemService items;

    public SyncServlet(ItemService items) {
        this.items = items;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Response answer = answer(request);
        // An error may come before the body was read: drain it. Not after a 408, whose body
        // stopped arriving: waiting for it again would hold this thread for another idle timeout.
        if (answer.status() >= 400 && answer.status() != 408) {
            ServletSupport.discardBody(request);
        }
        ServletSupport.write(response, answer);
    }

    private Response answer(HttpServletRequest request) {
        Routes.Route route = ServletSupport.route(request);
        Response rejected = ServletSupport.rejection(request, route);
        if (rejected != null) {
            return rejected;
        }
        return switch (route.endpoint()) {
            case PLAINTEXT -> Responses.plaintext();
            case JSON -> Responses.json();
            case HEALTH -> items.health();
            case METRICS -> items.metrics().scrape();
            case DELAY -> {
                Delay delay = Delay.parse(request.getParameter("ms"));
                yield delay.rejection() != null ? delay.rejection() : delay.sleep();
            }
            case ITEM -> item(request, route.id());
        };
    }

    private Response item(HttpServletRequest request, String id) {
        String method = request.getMethod();
        if (method.equals("GET")) {
            return items.read(id);
        }
        if (method.equals("DELETE")) {
            return items.delete(id);
        }
        String contentType = request.getContentType();
        long length = request.getContentLengthLong();
        Response rejected = items.rejectBeforeBody(id, contentType, length);
        if (rejected != null) {
            return rejected;
        }
        byte[] body;
        try {
            body = BoundedBody.read(request.getInputStream(), length, items.maxBody());
        } catch (IOException e) {
            return BoundedBody.unreadable(e);
        }
        if (body == null) {
            return items.tooLarge();
        }
        return method.equals("PUT")
                ? items.create(id, contentType, body)
                : items.update(id, contentType, body, request.getHeader("If-Match"));
    }
}
