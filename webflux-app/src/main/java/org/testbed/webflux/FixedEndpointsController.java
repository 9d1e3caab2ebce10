package org.testbed.webflux;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.testbed.service.Delay;
import org.testbed.service.ItemService;
import org.testbed.service.Responses;
import reactor.core.publisher.Mono;

/** The endpoints without items: simulated I/O, TechEmpower's plaintext and json, health, metrics. */
@RestController
class FixedEndpointsController {
    private final ItemService items;
    private final ExchangeAnswers answers;

    FixedEndpointsController(ItemService items, ExchangeAnswers answers) {
        this.items = items;
        this.answers = answers;
    }

    /** Holds no thread for the delay: the answer is sent when a timer of the event loop fires, as on Vert.x. */
    @GetMapping("/testbed/delay")
    Mono<Void> delay(ServerWebExchange exchange) {
        Delay delay = Delay.parse(exchange.getRequest().getQueryParams().getFirst("ms"));
        if (delay.rejection() != null) {
            return answers.send(exchange, delay.rejection());
        }
        if (delay.millis() == 0) {
            return answers.send(exchange, Responses.delayDone());
        }
        return answers.later(exchange, delay.millis(), Responses.delayDone());
    }

    @GetMapping("/testbed/plaintext")
    Mono<Void> plaintext(ServerWebExchange exchange) {
        return answers.send(exchange, Responses.plaintext());
    }

    @GetMapping("/testbed/json")
    Mono<Void> json(ServerWebExchange exchange) {
        return answers.send(exchange, Responses.json());
    }

    /** {@code TESTBED_METRICS}: Prometheus' scrape, or the usual 404 while off. */
    @GetMapping("/testbed/metrics")
    Mono<Void> metrics(ServerWebExchange exchange) {
        return answers.send(exchange, items.metrics().scrape());
    }

    @GetMapping("/testbed/health")
    Mono<Void> health(ServerWebExchange exchange) {
        return answers.reply(exchange, items.healthAsync());
    }
}
