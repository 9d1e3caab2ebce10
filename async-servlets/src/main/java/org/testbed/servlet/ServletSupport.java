package org.testbed.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.testbed.http.BoundedBody;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.server.ServerTuning;

/**
 * What the sync and the async servlet share (TechEmpower's servlet/servlet3 split): routing on the
 * raw request path, and copying a {@link Response} onto the servlet response. Everything else, from
 * validation to status codes and bodies, comes from {@code org.testbed.service.ItemService}.
 */
public final class ServletSupport {
    private ServletSupport() {
    }

    /** The route of a request, matched on the raw, undecoded path ({@code getRequestURI}); null if none. */
    public static Routes.Route route(HttpServletRequest request) {
        return Routes.match(request.getRequestURI());
    }

    /** The 404 when there is no route, the 405 (with {@code Allow}) when it takes another method, else null. */
    public static Response rejection(HttpServletRequest request, Routes.Route route) {
        if (route == null) {
            return Routes.notFound(request.getRequestURI());
        }
        String method = request.getMethod();
        return route.endpoint().allows(method) ? null : Response.methodNotAllowed(method, route.endpoint().allow());
    }

    /** Whether the request may still have body bytes on the wire (declared, or chunked). */
    public static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    /**
     * Reads and drops what is left of the request body (blocking, at most
     * {@link ServerTuning#DISCARD_LIMIT}), so that closing the connection after an early answer
     * does not reset it under the client's feet.
     */
    public static void discardBody(HttpServletRequest request) {
        if (!hasBody(request)) {
            return;
        }
        try {
            BoundedBody.discard(request.getInputStream(), request.getContentLengthLong(), ServerTuning.DISCARD_LIMIT);
        } catch (IOException | IllegalStateException e) {
            // the client is gone, or the body was already taken: nothing left to drain
        }
    }

    /**
     * Status, {@code Content-Type}, the contract's headers and {@code Content-Length} (the body is
     * written in one piece, never chunked). {@code Server} and {@code Date} come from the container.
     */
    public static void prepare(HttpServletResponse servletResponse, Response response) {
        servletResponse.setStatus(response.status());
        if (response.contentType() != null) {
            servletResponse.setContentType(response.contentType());
        }
        response.forEachHeader(servletResponse::setHeader);
        if (response.status() != 204) {
            servletResponse.setContentLength(response.body().length);
        }
    }

    /** Prepares and writes the whole response with blocking I/O. */
    public static void write(HttpServletResponse servletResponse, Response response) throws IOException {
        prepare(servletResponse, response);
        if (response.body().length > 0) {
            servletResponse.getOutputStream().write(response.body());
        }
    }
}
