package org.testbed.rest;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.testbed.service.Delay;
import org.testbed.service.ItemService;
import org.testbed.service.Responses;

/** The endpoints without items: simulated I/O, TechEmpower's plaintext and json, health, metrics. */
@RestController
class FixedEndpointsController {
    private final ItemService items;

    FixedEndpointsController(ItemService items) {
        this.items = items;
    }

    /** Blocks the worker (platform or virtual) thread for the delay: the sync model under test. */
    @GetMapping("/testbed/delay")
    ResponseEntity<byte[]> delay(@RequestParam(name = "ms", required = false) String ms) {
        Delay delay = Delay.parse(ms);
        return SpringResponses.of(delay.rejection() != null ? delay.rejection() : delay.sleep());
    }

    @GetMapping("/testbed/plaintext")
    ResponseEntity<byte[]> plaintext() {
        return SpringResponses.of(Responses.plaintext());
    }

    @GetMapping("/testbed/json")
    ResponseEntity<byte[]> json() {
        return SpringResponses.of(Responses.json());
    }

    /** {@code TESTBED_METRICS}: Prometheus' scrape, or the usual 404 while off. */
    @GetMapping("/testbed/metrics")
    ResponseEntity<byte[]> metrics() {
        return SpringResponses.of(items.metrics().scrape());
    }

    @GetMapping("/testbed/health")
    ResponseEntity<byte[]> health() {
        return SpringResponses.of(items.health());
    }
}
