package org.testbed.webflux;

import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.testbed.service.Metrics;
import reactor.core.publisher.Mono;

/**
 * {@code TESTBED_METRICS}: times every request from the first filter until its answer is written,
 * under its raw path's route, as the other variants' filters and handlers do. A pass-through while
 * metrics are off.
 */
class RequestMetricsFilter implements WebFilter, Ordered {
    private final Metrics metrics;

    RequestMetricsFilter(Metrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!metrics.enabled()) {
            return chain.filter(exchange);
        }
        long start = metrics.start();
        String method = exchange.getRequest().getMethod().name();
        String path = exchange.getRequest().getPath().value();
        return chain.filter(exchange).doFinally(signal -> {
            HttpStatusCode status = exchange.getResponse().getStatusCode();
            metrics.record(method, path, status == null ? 200 : status.value(), start);
        });
    }
}
