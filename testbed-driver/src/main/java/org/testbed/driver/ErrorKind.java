package org.testbed.driver;

/**
 * What kind of failure an error of the window was, as the driver tells them apart where it sees
 * them: what a fault of the store costs is read off these, second by second ({@link ErrorSeconds}).
 */
public enum ErrorKind {
    /** An answer with another status than the request expects (a 503 while the store hangs). */
    STATUS,
    /** No answer (or no TLS handshake) within the driver's timeout. */
    TIMEOUT,
    /** The connection failed: refused, reset, closed under a request, or a write that failed. */
    CONNECTION,
    /** An answer of the expected status whose content the scenario's checks refused. */
    WRONG_ANSWER,
    /** Anything else (the driver's own failure). */
    OTHER
}
