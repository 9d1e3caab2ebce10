package org.testbed.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.testbed.http.Response;
import org.testbed.http.Routes;

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
