package org.testbed.rest;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.testbed.http.Response;
import org.testbed.http.Routes;

/**
 * Replaces Spring Boot's whitelabel {@code /error}: errors raised by the container outside Spring
 * MVC (e.g. an unreadable request) are answered as problem bodies too.
 */
@RestController
class ProblemErrorController implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<byte[]> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (code == null) {
            // Asked for directly: /error is not part of the API.
            return SpringResponses.of(Routes.notFound(request.getRequestURI()));
        }
        int status = code instanceof Integer value && value >= 400 ? value : 500;
        String detail = status >= 500 ? "Unexpected server error; see the server log." : "The request could not be served.";
        return SpringResponses.of(Response.problem(status, detail));
    }
}
