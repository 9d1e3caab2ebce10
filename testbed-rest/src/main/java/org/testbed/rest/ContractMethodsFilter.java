package org.testbed.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.testbed.http.Response;
import org.testbed.http.Routes;

/**
 * Spring MVC answers HEAD and OPTIONS on every GET mapping by itself, and its DispatcherServlet
 * hands TRACE to {@code HttpServlet.doTrace}, which echoes the request (headers, cookies) back; the
 * contract allows only the methods of its table, and every other variant answers them 405. This
 * keeps Spring to the contract.
 */
class ContractMethodsFilter extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String method = request.getMethod();
        if (!method.equals("HEAD") && !method.equals("OPTIONS") && !method.equals("TRACE")) {
            chain.doFilter(request, response);
            return;
        }
        Routes.Route route = Routes.match(request.getRequestURI());
        write(response, route == null ? Routes.notFound(request.getRequestURI())
                : Response.methodNotAllowed(method, route.endpoint().allow()));
    }

    private static void write(HttpServletResponse response, Response answer) throws IOException {
        response.setStatus(answer.status());
        response.setContentType(answer.contentType());
        response.setContentLength(answer.body().length);
        answer.forEachHeader(response::setHeader);
        response.getOutputStream().write(answer.body());
    }
}
