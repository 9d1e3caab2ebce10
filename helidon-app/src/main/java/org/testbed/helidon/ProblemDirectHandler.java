package org.testbed.helidon;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import org.testbed.http.HttpDate;
import org.testbed.http.MediaTypes;
import org.testbed.http.Problem;
import org.testbed.server.ServerTuning;

/**
 * What Helidon answers itself, before or outside the handler (a request line or header block it
 * cannot parse or that is too long, a bad chunk size, a failure while routing): a problem body
 * with the contract's headers instead of Helidon's plain text, and the connection closed after
 * it, since the rest of the stream cannot be trusted. The detail never echoes the request.
 */
final class ProblemDirectHandler implements DirectHandler {

    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status defaultStatus,
                                    ServerResponseHeaders responseHeaders, String message) {
        int status = defaultStatus.code();
        Problem problem = Problem.of(status, detail(status));
        return TransportResponse.builder()
                .status(defaultStatus)
                .header(HeaderNames.SERVER, ServerTuning.SERVER_HEADER)
                .header(HeaderNames.DATE, HttpDate.now())
                .header(HeaderNames.CONTENT_TYPE, MediaTypes.PROBLEM_JSON)
                .entity(problem.toJson())
                .keepAlive(false)
                .build();
    }

    private static String detail(int status) {
        return switch (status) {
            case 400 -> "The request is not valid HTTP/1.1.";
            case 413 -> "The request body is too large.";
            case 414 -> "The request line is too long.";
            case 431 -> "The request headers are too large.";
            default -> status >= 500 ? "Unexpected server error; see the server log."
                    : "The request was refused: " + Problem.titleOf(status) + ".";
        };
    }
}
