package org.testbed.webflux;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import org.testbed.http.Problem;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import reactor.core.publisher.Mono;

/**
 * WebFlux's own refusals and anything unexpected as the contract's problem bodies, ahead of Spring
 * Boot's error handler (order -1), which would answer with its own JSON or an HTML page: a status
 * WebFlux raised keeps its status, anything else is a 500 without a trace.
 */
@Order(-2)
class ProblemExceptionHandler implements WebExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);

    private final ExchangeAnswers answers;

    ProblemExceptionHandler(ExchangeAnswers answers) {
        this.answers = answers;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        if (exchange.getResponse().isCommitted()) {
            return Mono.error(failure);
        }
        return answers.refuse(exchange, problemFor(exchange, failure));
    }

    private static Response problemFor(ServerWebExchange exchange, Throwable failure) {
        if (failure instanceof ResponseStatusException refused && refused.getStatusCode().value() < 500) {
            int status = refused.getStatusCode().value();
            if (status == 404) {
                return Routes.notFound(exchange.getRequest().getPath().value());
            }
            return Response.problem(status, "The request was refused: " + Problem.titleOf(status) + ".");
        }
        log.error("Unexpected failure on {} {}", exchange.getRequest().getMethod(), exchange.getRequest().getPath(), failure);
        return Response.problem(500, "Unexpected server error; see the server log.");
    }
}
