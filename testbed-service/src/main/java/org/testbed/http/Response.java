package org.testbed.http;

import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;

/**
 * What a variant writes back: status, body and the few headers the contract names. Built by the
 * shared {@link org.testbed.service.ItemService}, so every variant answers byte-for-byte the same;
 * an adapter only copies it onto its server's response object. {@code Content-Length} is the body's
 * length; {@code Server} and {@code Date} are set by each server's own configuration.
 */
public record Response(int status, String contentType, byte[] body, String etag, String location,
                       String retryAfter, String allow) {
    private static final byte[] EMPTY = new byte[0];

    /** Seconds a client should wait before retrying while Memcached is unavailable. */
    public static final String RETRY_AFTER_SECONDS = "1";

    public static Response of(int status, String contentType, byte[] body) {
        return new Response(status, contentType, body, null, null, null, null);
    }

    public static Response text(String text) {
        return of(200, MediaTypes.TEXT_PLAIN, text.getBytes(StandardCharsets.UTF_8));
    }

    public static Response noContent() {
        return new Response(204, null, EMPTY, null, null, null, null);
    }

    public static Response problem(int status, String detail) {
        return problem(Problem.of(status, detail));
    }

    public static Response problem(Problem problem) {
        String retryAfter = problem.status() == 503 ? RETRY_AFTER_SECONDS : null;
        return new Response(problem.status(), MediaTypes.PROBLEM_JSON, problem.toJson(), null, null, retryAfter, null);
    }

    public static Response methodNotAllowed(String method, String allow) {
        Problem problem = Problem.of(405, "Method " + method + " is not allowed here; allowed: " + allow + ".");
        return new Response(405, MediaTypes.PROBLEM_JSON, problem.toJson(), null, null, null, allow);
    }

    public Response withEtag(String newEtag) {
        return new Response(status, contentType, body, newEtag, location, retryAfter, allow);
    }

    public Response withLocation(String newLocation) {
        return new Response(status, contentType, body, etag, newLocation, retryAfter, allow);
    }

    /** Calls {@code header} for each header this response sets, besides Content-Type and Content-Length. */
    public void forEachHeader(BiConsumer<String, String> header) {
        if (etag != null) {
            header.accept("ETag", etag);
        }
        if (location != null) {
            header.accept("Location", location);
        }
        if (retryAfter != null) {
            header.accept("Retry-After", retryAfter);
        }
        if (allow != null) {
            header.accept("Allow", allow);
        }
    }
}
