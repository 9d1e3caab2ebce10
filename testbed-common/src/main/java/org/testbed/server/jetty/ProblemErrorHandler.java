package org.testbed.server.jetty;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testbed.http.Problem;

/**
 * Jetty's error pages as problem JSON: every error Jetty answers by itself (a request it cannot
 * parse, an ambiguous or bad URI, an exception escaping a handler or servlet, a servlet's
 * {@code sendError}) gets an {@code application/problem+json} body with {@code Content-Length},
 * whatever the method or {@code Accept} header; never Jetty's HTML page, never a stack trace.
 *
 * <p>Install on the server ({@code server.setErrorHandler}) and, for servlets, on the context too
 * ({@code context.setErrorHandler}), which otherwise brings its own.
 */
public class ProblemErrorHandler extends ErrorHandler {
    private static final Logger log = LoggerFactory.getLogger(ProblemErrorHandler.class);

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        String message = (String) request.getAttribute(ERROR_MESSAGE);
        Throwable cause = (Throwable) request.getAttribute(ERROR_EXCEPTION);
        if (cause instanceof HttpException httpException) {
            status = httpException.getCode();
            if (message == null) {
                message = httpException.getReason();
            }
        }
        if (status < 400) {
            status = HttpStatus.INTERNAL_SERVER_ERROR_500;
        }
        if (status >= 500 && cause != null) {
            log.error("Request failed: {} {}", request.getMethod(), request.getHttpURI().getPathQuery(), cause);
        }
        if (HttpStatus.hasNoBody(status)) {
            response.setStatus(status);
            callback.succeeded();
            return true;
        }
        response.getHeaders().put(JettyServers.SERVER);
        Problem problem = Problem.of(status, detail(status, message, cause));
        JettyServers.write(response, org.testbed.http.Response.problem(problem), callback);
        return true;
    }

    /**
     * The problem's detail: Jetty's message for client errors when it says what was wrong (e.g.
     * "Ambiguous URI path separator"), else the status's title; a fixed sentence for server errors,
     * whose cause belongs in the log, not in the answer.
     */
    static String detail(int status, String message, Throwable cause) {
        if (status >= 500) {
            return "The server failed to handle this request; see the server log.";
        }
        if (isSpecific(status, message)) {
            return message;
        }
        if (cause != null && !(cause instanceof HttpException) && isSpecific(status, cause.getMessage())) {
            return cause.getMessage();
        }
        return "The server rejected this request: " + Problem.titleOf(status) + ".";
    }

    /** Not empty, and not only the reason phrase ("Bad Request", "400: Bad Request"). */
    private static boolean isSpecific(int status, String message) {
        if (message == null || message.isBlank()) {
            return false;
        }
        String reason = HttpStatus.getMessage(status);
        return !message.equals(reason) && !message.equals(status + ": " + reason);
    }
}
