package org.testbed.containers;

import org.testbed.http.Problem;

/**
 * The detail of a problem body for an error a container answers by itself (Tomcat's error valve,
 * Jetty's error handler), worded alike on every container.
 */
public final class ContainerErrors {
    private ContainerErrors() {
    }

    /**
     * The container's own message when it says what was wrong ("Invalid character found in the
     * request target", "Ambiguous URI path separator"), else a sentence naming the status. When
     * application code failed with an exception ({@code applicationFailure}), a fixed sentence: the
     * exception belongs in the log, never in the answer.
     *
     * @param message the container's message; a leading {@code "400: "} and a bare reason phrase
     *                ("Bad Request", "null") count as no message
     */
    public static String detail(int status, String message, boolean applicationFailure) {
        if (applicationFailure) {
            return status >= 500 ? "The server failed to handle this request; see the server log."
                    : "The server rejected this request: " + Problem.titleOf(status) + ".";
        }
        String specific = specific(status, message);
        if (specific != null) {
            return specific;
        }
        return (status >= 500 ? "The server could not handle this request: " : "The server rejected this request: ")
                + Problem.titleOf(status) + ".";
    }

    /**
     * The status to answer for an error the container found in the request itself. Tomcat answers
     * an unknown transfer coding with 501 and Jetty a request line with an unknown version with
     * 505, as RFC 9112 suggests; but both are the client's fault, and a client must not be able to
     * make the service count server errors at will (the contract: hostile input is 4xx). They
     * become 400; every other status stays.
     */
    public static int clientStatus(int status) {
        return status == 501 || status == 505 ? 400 : status;
    }

    private static String specific(int status, String message) {
        if (message == null) {
            return null;
        }
        String prefix = status + ": ";
        String text = (message.startsWith(prefix) ? message.substring(prefix.length()) : message).strip();
        if (text.isEmpty() || text.equals("null") || text.equalsIgnoreCase(Problem.titleOf(status))
                || text.equalsIgnoreCase(reasonPhrase(status))) {
            return null;
        }
        return text;
    }

    /** The older reason phrases containers still use where RFC 9110 renamed them. */
    private static String reasonPhrase(int status) {
        return switch (status) {
            case 413 -> "Payload Too Large";
            case 414 -> "URI Too Long";
            default -> Problem.titleOf(status);
        };
    }
}
