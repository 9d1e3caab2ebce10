package org.testbed.rest;

import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import org.testbed.http.Response;
import org.testbed.http.Routes;

/**
 * Spring MVC's own refusals as the contract's problem bodies: unknown path 404, wrong method 405
 * with the same {@code Allow} as every other variant, anything unexpected 500 without a trace.
 */
@RestControllerAdvice
class ProblemAdvice {
    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler({NoHandlerFoundException.class, NoResourceFoundException.class})
    ResponseEntity<byte[]> notFound(HttpServletRequest request) {
        return SpringResponses.of(Routes.notFound(request.getRequestURI()));
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<byte[]> methodNotAllowed(HttpServletRequest request) {
        Routes.Route route = Routes.match(request.getRequestURI());
        if (route == null) {
            return SpringResponses.of(Routes.notFound(request.getRequestURI()));
        }
        return SpringResponses.of(Response.methodNotAllowed(request.getMethod(), route.endpoint().allow()));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<byte[]> unexpected(HttpServletRequest request, Exception e) {
        log.error("Unexpected failure on {} {}", request.getMethod(), request.getRequestURI(), e);
        return SpringResponses.of(Response.problem(500, "Unexpected server error; see the server log."));
    }
}
