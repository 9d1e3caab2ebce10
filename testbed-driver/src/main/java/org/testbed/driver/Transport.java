package org.testbed.driver;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * How one connection's HTTP bytes reach its socket: as they are ({@link PlainTransport}), or
 * through TLS ({@link TlsTransport}). The event loop only ever talks to a connection through its
 * transport, so the request, response and arrival code is the same for HTTP and HTTPS.
 */
interface Transport {

    /**
     * Advances the handshake after the TCP connection is established; true once the connection is
     * ready for HTTP. On a blocking channel it returns only when done; on a non-blocking one it may
     * return false, and is called again when {@link #wantsWrite()} (writable) or else readable.
     */
    boolean handshake(SocketChannel channel) throws IOException;

    /** Whether this transport has a handshake to make at all (TLS) — what the handshake count counts. */
    boolean handshakes();

    /**
     * Writes as much of {@code request} as the socket takes; true once all of it (and, for TLS,
     * its records) is on the wire, false when the rest waits for the socket to be writable.
     */
    boolean write(SocketChannel channel, ByteBuffer request) throws IOException;

    /** True while bytes wait for the socket to be writable (a write or a handshake message). */
    boolean wantsWrite();

    /**
     * Reads what the socket has and hands the response bytes to {@code parser}, using
     * {@code scratch} (the loop's read buffer) as it likes. Returns the bytes taken from the
     * socket: -1 at end of stream, 0 when the socket had nothing.
     */
    int read(SocketChannel channel, ByteBuffer scratch, HttpResponseParser parser) throws IOException;
}
