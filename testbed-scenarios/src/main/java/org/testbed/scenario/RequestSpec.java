package org.testbed.scenario;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One request a driver sends, as data: what to send and what must come back.
 *
 * @param name a short label for reports ({@code create}, {@code read}, {@code mix-get}, ...)
 * @param method the HTTP method
 * @param path the request target, starting with {@code /testbed}
 * @param body the JSON body to send with {@code Content-Type: application/json}, or null for none
 * @param expectedStatus the only status that counts as success
 * @param checks what the response must also show
 * @param captureEtag keep the response's {@code ETag} for a later request of the same stream
 * @param sendIfMatch send {@code If-Match} with the last captured {@code ETag}
 */
public record RequestSpec(String name, HttpMethod method, String path, byte[] body, int expectedStatus,
                          List<Check> checks, boolean captureEtag, boolean sendIfMatch) {

    public static final String JSON = "application/json";

    public RequestSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with /: " + path);
        }
        checks = List.copyOf(checks);
    }

    public RequestSpec(String name, HttpMethod method, String path, byte[] body, int expectedStatus, List<Check> checks) {
        this(name, method, path, body, expectedStatus, checks, false, false);
    }

    public boolean hasBody() {
        return body != null;
    }

    /** The body as text (UTF-8), or null. */
    public String bodyText() {
        return body == null ? null : new String(body, StandardCharsets.UTF_8);
    }

    /**
     * Verifies a response the way every driver must: the expected status, then each check.
     * Returns null on success, otherwise the first reason it failed.
     */
    public String failure(int status, Function<String, String> header, byte[] body) {
        if (status != expectedStatus) {
            return "status " + status + ", expected " + expectedStatus;
        }
        for (Check check : checks) {
            String failure = check.failure(header, body == null ? new byte[0] : body);
            if (failure != null) {
                return failure;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return name + ": " + method + " " + path + (body == null ? "" : " (" + body.length + " B body)")
                + " -> " + expectedStatus;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestSpec other && name.equals(other.name) && method == other.method
                && path.equals(other.path) && java.util.Arrays.equals(body, other.body)
                && expectedStatus == other.expectedStatus && checks.equals(other.checks)
                && captureEtag == other.captureEtag && sendIfMatch == other.sendIfMatch;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, method, path, java.util.Arrays.hashCode(body), expectedStatus, checks);
    }
}
