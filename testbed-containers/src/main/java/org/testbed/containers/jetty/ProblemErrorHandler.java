package org.testbed.containers.jetty;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.testbed.http.Problem;
import org.testbed.containers.ContainerErrors;

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
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        String message = (String) request.getAttribute(ERROR_MESSAGE);
        Throwable cause = (Throwable) request.getAttribute(ERROR_EXCEPTION);
        if (cause instanceof HttpException httpException) {
            // Jetty rejected the request (bad URI, header, version...): its message says why.
            status = httpException.getCode();
            if (message == null) {
                message = httpException.getReason();
            }
        }
        if (status < 400) {
            status = HttpStatus.INTERNAL_SERVER_ERROR_500;
            response.setStatus(status);
        }
        boolean applicationFailure = cause != null && !(cause instanceof HttpException);
        if (!applicationFailure && ContainerErrors.clientStatus(status) != status) {
            status = ContainerErrors.clientStatus(status);
            response.setStatus(status);
        }
        // Jetty has logged the failure with its stack trace already (Response.writeError).
        response.getHeaders().put(JettyServers.SERVER);
        Problem problem = Problem.of(status, ContainerErrors.detail(status, message, applicationFailure));
        JettyServers.write(response, org.testbed.http.Response.problem(problem), callback);
        return true;
    }
}
