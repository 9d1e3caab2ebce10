package org.testbed.store;

/**
 * Memcached did not answer: down, hung, unreachable or slower than its timeout. The one failure a
 * variant turns into 503 with {@code Retry-After}.
 */
public final class StoreUnavailableException extends RuntimeException {
    public StoreUnavailableException(String message, Throwable cause) {
        // No stack trace: during an outage this is thrown on every request.
        super(message, cause, false, false);
    }
}
