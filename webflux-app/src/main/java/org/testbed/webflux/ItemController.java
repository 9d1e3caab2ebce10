package org.testbed.webflux;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.service.ItemService;
import reactor.core.publisher.Mono;

/**
 * CRUD on {@code /testbed/items/{id}} over the asynchronous service: each handler returns at once,
 * and the answer is written when Memcached's reply completes the service's future. The id is the
 * raw path segment {@link ContractRoutesFilter} matched, as every variant takes it, not WebFlux's
 * decoded path variable, so {@code %41} is an invalid id here too.
 */
@RestController
class ItemController {
    private final ItemService items;
    private final ExchangeAnswers answers;

    ItemController(ItemService items, ExchangeAnswers answers) {
        this.items = items;
        this.answers = answers;
    }

    @GetMapping("/testbed/items/{id}")
    Mono<Void> read(ServerWebExchange exchange) {
        return answers.reply(exchange, items.readAsync(rawId(exchange)));
    }

    @PutMapping("/testbed/items/{id}")
    Mono<Void> create(ServerWebExchange exchange) {
        String contentType = contentType(exchange.getRequest());
        return withBody(exchange, (id, body) -> items.createAsync(id, contentType, body));
    }

    @PostMapping("/testbed/items/{id}")
    Mono<Void> update(ServerWebExchange exchange) {
        String contentType = contentType(exchange.getRequest());
        String ifMatch = exchange.getRequest().getHeaders().getFirst(HttpHeaders.IF_MATCH);
        return withBody(exchange, (id, body) -> items.updateAsync(id, contentType, body, ifMatch));
    }

    @DeleteMapping("/testbed/items/{id}")
    Mono<Void> delete(ServerWebExchange exchange) {
        return answers.reply(exchange, items.deleteAsync(rawId(exchange)));
    }

    /**
     * Rejects what needs no body, reads at most the body limit as it arrives, then lets
     * {@code write} store it.
     */
    private Mono<Void> withBody(ServerWebExchange exchange, BiFunction<String, byte[], CompletableFuture<Response>> write) {
        ServerHttpRequest request = exchange.getRequest();
        String id = rawId(exchange);
        Response rejected = items.rejectBeforeBody(id, contentType(request), RequestBodies.contentLength(request.getHeaders()));
        if (rejected != null) {
            return answers.refuse(exchange, rejected);
        }
        return RequestBodies.read(request, items.maxBody()).flatMap(body -> {
            if (body.failure() != null) {
                // A client that stalled or went away mid-body: 408 or 400 like every variant, and
                // the connection is not reused.
                ExchangeAnswers.closeAfter(exchange.getResponse());
                return answers.send(exchange, RequestBodies.unreadable(body.failure()));
            }
            if (body.tooLarge()) {
                if (!body.ended()) {
                    ExchangeAnswers.closeAfter(exchange.getResponse());
                }
                return answers.send(exchange, items.tooLarge());
            }
            return answers.reply(exchange, write.apply(id, body.bytes()));
        });
    }

    private static String rawId(ServerWebExchange exchange) {
        Routes.Route route = exchange.getAttribute(ContractRoutesFilter.ROUTE);
        // The filter matched an item route, so there is one; "" fails validation with a clear 400 if not.
        return route == null || route.id() == null ? "" : route.id();
    }

    private static String contentType(ServerHttpRequest request) {
        return request.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE);
    }
}
