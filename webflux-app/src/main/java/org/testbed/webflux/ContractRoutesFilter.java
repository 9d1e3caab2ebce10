package org.testbed.webflux;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.testbed.http.HttpDate;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.server.ServerTuning;
import reactor.core.publisher.Mono;

/**
 * Keeps WebFlux to the contract's routes before any handler mapping runs. WebFlux answers HEAD on
 * every GET mapping by itself, matches {@code /testbed/json;x} as {@code /testbed/json} (a path
 * parameter) and has its own 404 and 405; here the raw path decides through {@link Routes#match},
 * as on every variant: an unknown path is 404, a method outside the endpoint's {@code Allow} 405,
 * both as problem bodies. Every answer also gets {@code Server} and {@code Date} here.
 */
class ContractRoutesFilter implements WebFilter, Ordered {
    /** The exchange attribute holding the request's {@link Routes.Route}, raw id included. */
    static final String ROUTE = ContractRoutesFilter.class.getName() + ".route";

    private final ExchangeAnswers answers;

    ContractRoutesFilter(ExchangeAnswers answers) {
        this.answers = answers;
    }

    @Override
    public int getOrder() {
        // After RequestMetricsFilter, so that its refusals are timed too.
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        HttpHeaders headers = exchange.getResponse().getHeaders();
        headers.set(HttpHeaders.SERVER, ServerTuning.SERVER_HEADER);
        headers.set(HttpHeaders.DATE, HttpDate.now());
        String path = exchange.getRequest().getPath().value();
        Routes.Route route = Routes.match(path);
        if (route == null) {
            return answers.refuse(exchange, Routes.notFound(path));
        }
        String method = exchange.getRequest().getMethod().name();
        if (!route.endpoint().allows(method)) {
            return answers.refuse(exchange, Response.methodNotAllowed(method, route.endpoint().allow()));
        }
        exchange.getAttributes().put(ROUTE, route);
        return chain.filter(exchange);
    }
}
