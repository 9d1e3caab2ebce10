package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;

/**
 * Raw requests to one variant over a kept-alive connection, and the checks every answer to a
 * hostile request must pass. A server may close the connection after an error (Tomcat does after
 * 400 and 413, with {@code Connection: close}): the connection is then dropped, and a request that
 * finds a reused connection closed before any answer is sent again once on a fresh one. A request
 * that gets no answer on a fresh connection is a failure.
 */
final class RawClient implements AutoCloseable {
    private final URI base;
    private RawConnection connection;

    RawClient(URI base) {
        this.base = base;
    }

    String host() {
        return base.getHost() + ":" + base.getPort();
    }

    synchronized RawConnection.RawResponse exchange(RawRequest request) {
        byte[] bytes = request.bytes();
        try {
            RawConnection.RawResponse response;
            boolean reused = connection != null;
            if (!reused) {
                connection = new RawConnection(base);
            }
            try {
                response = connection.send(bytes, request.method());
            } catch (RawConnection.NoAnswer closedMeanwhile) {
                drop();
                if (!reused) {
                    throw closedMeanwhile;
                }
                connection = new RawConnection(base);
                response = connection.send(bytes, request.method());
            }
            if ("close".equalsIgnoreCase(response.header("Connection"))) {
                drop();
            }
            return response;
        } catch (IOException e) {
            drop();
            throw new UncheckedIOException(request.method() + " got no HTTP answer: " + e, e);
        }
    }

    private void drop() {
        if (connection != null) {
            try {
                connection.close();
            } catch (IOException ignored) {
                // closing a socket the peer already closed
            }
            connection = null;
        }
    }

    @Override
    public synchronized void close() {
        drop();
    }

    /**
     * What every answer to any request must be: not a server error, the universal headers, a
     * problem body for every 4xx, and nothing that looks like a stack trace in any header.
     */
    static void checkAnswer(String what, RawConnection.RawResponse response) {
        int status = response.status();
        assertThat(status / 100 == 2 || status / 100 == 4)
                .as("%s: a 2xx or 4xx, never 5xx, got %d; body %s", what, status, response.toReply().text()).isTrue();
        HttpProbe.checkUniversalRules(what, response.toReply());
        assertNoStackTraceInHeaders(what, response.headers());
    }

    static void assertNoStackTraceInHeaders(String what, Map<String, String> headers) {
        headers.forEach((name, value) -> assertThat(name + ": " + value).as("%s: header without a stack trace", what)
                .doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("at org.")
                .doesNotContain("at java.").doesNotContainIgnoringCase("<html"));
    }
}
