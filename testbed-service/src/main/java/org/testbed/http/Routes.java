package org.testbed.http;

/**
 * The contract's paths, for variants that route by hand (servlets, Jetty handlers). Matching uses
 * the raw, undecoded path: ids are unreserved characters, so a {@code %} in an id is simply invalid.
 */
public final class Routes {
    public static final String BASE = "/testbed";
    public static final String ITEMS_PREFIX = BASE + "/items/";

    public enum Endpoint {
        ITEM("GET, PUT, POST, DELETE"),
        DELAY("GET"),
        PLAINTEXT("GET"),
        JSON("GET"),
        HEALTH("GET"),
        /** Prometheus' scrape of {@code TESTBED_METRICS}; a 404 while the setting is off. */
        METRICS("GET");

        private final String allow;

        Endpoint(String allow) {
            this.allow = allow;
        }

        /** The {@code Allow} header value for a 405 on this endpoint. */
        public String allow() {
            return allow;
        }

        public boolean allows(String method) {
            return this == ITEM
                    ? method.equals("GET") || method.equals("PUT") || method.equals("POST") || method.equals("DELETE")
                    : method.equals("GET");
        }
    }

    /** A matched path: the endpoint and, for items, the raw id (not yet validated). */
    public record Route(Endpoint endpoint, String id) {
    }

    private static final Route DELAY = new Route(Endpoint.DELAY, null);
    private static final Route PLAINTEXT = new Route(Endpoint.PLAINTEXT, null);
    private static final Route JSON = new Route(Endpoint.JSON, null);
    private static final Route HEALTH = new Route(Endpoint.HEALTH, null);
    private static final Route METRICS = new Route(Endpoint.METRICS, null);

    private Routes() {
    }

    /** Returns the route for a raw request path (no query string), or null for 404. */
    public static Route match(String path) {
        if (path == null || !path.startsWith(BASE)) {
            return null;
        }
        if (path.startsWith(ITEMS_PREFIX)) {
            String id = path.substring(ITEMS_PREFIX.length());
            return id.isEmpty() || id.indexOf('/') >= 0 ? null : new Route(Endpoint.ITEM, id);
        }
        return switch (path) {
            case BASE + "/delay" -> DELAY;
            case BASE + "/plaintext" -> PLAINTEXT;
            case BASE + "/json" -> JSON;
            case BASE + "/health" -> HEALTH;
            case BASE + "/metrics" -> METRICS;
            default -> null;
        };
    }

    public static Response notFound(String path) {
        return Response.problem(404, "No resource at this path. The API lives under " + BASE
                + ": /items/{id}, /delay?ms=N, /plaintext, /json, /health.");
    }

    public static String location(String id) {
        return ITEMS_PREFIX + id;
    }
}
