package org.testbed.rest;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.function.BiFunction;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;
import org.testbed.http.BoundedBody;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.service.ItemService;

/**
 * CRUD on {@code /testbed/items/{id}}. The id is taken from the raw request URI, as every variant
 * does, rather than from Spring's decoded path variable, so {@code %41} is an invalid id here too.
 */
@RestController
class ItemController {
    private final ItemService items;

    ItemController(ItemService items) {
        this.items = items;
    }

    @GetMapping("/testbed/items/{id}")
    ResponseEntity<byte[]> read(HttpServletRequest request) {
        return SpringResponses.of(items.read(rawId(request)));
    }

    @PutMapping("/testbed/items/{id}")
    ResponseEntity<byte[]> create(HttpServletRequest request) throws IOException {
        return withBody(request, (id, body) -> items.create(id, request.getContentType(), body));
    }

    @PostMapping("/testbed/items/{id}")
    ResponseEntity<byte[]> update(HttpServletRequest request) throws IOException {
        return withBody(request, (id, body) -> items.update(id, request.getContentType(), body,
                request.getHeader("If-Match")));
    }

    /** Rejects what needs no body, reads at most the body limit, then lets {@code write} store it. */
    private ResponseEntity<byte[]> withBody(HttpServletRequest request, BiFunction<String, byte[], Response> write)
            throws IOException {
        String id = rawId(request);
        Response rejected = items.rejectBeforeBody(id, request.getContentType(), request.getContentLengthLong());
        if (rejected != null) {
            return SpringResponses.of(rejected);
        }
        byte[] body;
        try {
            body = BoundedBody.read(request.getInputStream(), request.getContentLengthLong(), items.maxBody());
        } catch (IOException e) {
            // A client that stalled or went away mid-body: 408 or 400 like every variant, not an
            // "unexpected" 500 logged with its stack trace for each slow client.
            return SpringResponses.of(BoundedBody.unreadable(e));
        }
        return SpringResponses.of(body == null ? items.tooLarge() : write.apply(id, body));
    }

    @DeleteMapping("/testbed/items/{id}")
    ResponseEntity<byte[]> delete(HttpServletRequest request) {
        return SpringResponses.of(items.delete(rawId(request)));
    }

    private static String rawId(HttpServletRequest request) {
        Routes.Route route = Routes.match(request.getRequestURI());
        // Spring matched {id}, so the raw path has one; "" fails validation with a clear 400 if not.
        return route == null ? "" : route.id();
    }
}
