package org.testbed.webflux;

import io.netty.handler.timeout.TimeoutException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Hooks;
import reactor.netty.channel.AbortedException;

/**
 * What Reactor does with an error that arrives after its subscriber has finished. Reactor Netty
 * signals a connection's read timeout or loss both to the request body, whose reader answers it
 * (408, or nothing to a client gone), and to the exchange, which has by then completed; Reactor
 * would log the second as an error each time. A slow or vanished client is routine, not a server
 * error (the vertx variant logs its connection errors at debug too), so those are logged at debug;
 * anything else dropped stays an error.
 */
final class DroppedErrors {
    private static final Logger log = LoggerFactory.getLogger(DroppedErrors.class);

    private DroppedErrors() {
    }

    static void logConnectionErrorsAtDebug() {
        Hooks.onErrorDropped(error -> {
            if (isConnectionError(error)) {
                log.debug("Connection error after the exchange ended: {}", error.toString());
            } else {
                log.error("Error after the exchange ended", error);
            }
        });
    }

    static boolean isConnectionError(Throwable error) {
        return error instanceof TimeoutException || error instanceof AbortedException || error instanceof IOException;
    }
}
