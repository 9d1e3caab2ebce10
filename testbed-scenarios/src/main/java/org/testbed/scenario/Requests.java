package org.testbed.scenario;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.testbed.item.Item;

/** The contract's requests, one factory each, with the checks every driver applies. */
public final class Requests {
    public static final String BASE = "/testbed";
    public static final String ITEMS = BASE + "/items/";
    public static final int MAX_DELAY_MS = 10_000;

    private static final RequestSpec PLAINTEXT = new RequestSpec("plaintext", HttpMethod.GET, BASE + "/plaintext",
            null, 200, List.of(new Check.BodyEquals("Hello, World!".getBytes(StandardCharsets.UTF_8))));
    private static final RequestSpec JSON = new RequestSpec("json", HttpMethod.GET, BASE + "/json",
            null, 200, List.of(new Check.JsonStringField("message", "Hello, World!")));
    private static final RequestSpec HEALTH = new RequestSpec("health", HttpMethod.GET, BASE + "/health",
            null, 200, List.of(new Check.JsonStringField("status", "UP")));

    private Requests() {
    }

    public static RequestSpec plaintext() {
        return PLAINTEXT;
    }

    public static RequestSpec json() {
        return JSON;
    }

    public static RequestSpec health() {
        return HEALTH;
    }

    /** {@code GET /testbed/delay?ms=N}: 200 {@code Hello World!} after N ms of simulated I/O. */
    public static RequestSpec delay(int ms) {
        checkDelay(ms);
        return new RequestSpec("delay", HttpMethod.GET, BASE + "/delay?ms=" + ms, null, 200,
                List.of(new Check.BodyEquals("Hello World!".getBytes(StandardCharsets.UTF_8))));
    }

    /** Refuses a delay outside what the contract's delay endpoint accepts, 0..{@link #MAX_DELAY_MS} ms. */
    static void checkDelay(int ms) {
        if (ms < 0 || ms > MAX_DELAY_MS) {
            throw new InvalidParameterException("delayMs", ms, "0.." + MAX_DELAY_MS + " (milliseconds)");
        }
    }

    /** PUT: create, 201 with the item and an ETag. */
    public static RequestSpec create(String name, Item item) {
        return new RequestSpec(name, HttpMethod.PUT, ITEMS + item.id(), Payloads.body(item.name(), item.payload()),
                201, List.of(new Check.HeaderPresent("ETag"), new Check.ItemIs(item)));
    }

    /** GET expecting this exact item (read-your-writes); captures its ETag. */
    public static RequestSpec read(String name, Item expected) {
        return new RequestSpec(name, HttpMethod.GET, ITEMS + expected.id(), null, 200,
                List.of(new Check.HeaderPresent("ETag"), new Check.ItemIs(expected)), true, false);
    }

    /** GET of an item whose content others may change (a preloaded key): 200 and an ETag only. */
    public static RequestSpec readAny(String name, String id) {
        return new RequestSpec(name, HttpMethod.GET, ITEMS + id, null, 200, List.of(new Check.HeaderPresent("ETag")));
    }

    /** GET expecting 404. */
    public static RequestSpec readAbsent(String name, String id) {
        return new RequestSpec(name, HttpMethod.GET, ITEMS + id, null, 404, List.of());
    }

    /** POST: update, 200 with the new item; with {@code ifMatch}, a compare-and-swap on the captured ETag. */
    public static RequestSpec update(String name, Item item, boolean ifMatch) {
        return new RequestSpec(name, HttpMethod.POST, ITEMS + item.id(), Payloads.body(item.name(), item.payload()),
                200, List.of(new Check.HeaderPresent("ETag"), new Check.ItemIs(item)), false, ifMatch);
    }

    /** DELETE: 204. */
    public static RequestSpec delete(String name, String id) {
        return new RequestSpec(name, HttpMethod.DELETE, ITEMS + id, null, 204, List.of());
    }
}
