package org.testbed.driver;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.testbed.scenario.Operations;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.RequestStream;

/** One keep-alive connection of an event loop: one request at a time. */
final class HttpConnection {
    SocketChannel channel;
    SelectionKey key;
    /** How bytes reach the socket: plain, or a TLS session (new on every connect). */
    Transport transport = PlainTransport.INSTANCE;
    /** True from the TCP connect until the transport's handshake is done (always false for plain HTTP). */
    boolean handshaking;
    /** Opened without blocking and not ready yet (connect or handshake under way): the loop counts these. */
    boolean establishing;
    /** When the TCP connection was opened: a handshake that takes longer than the request timeout fails. */
    long connectNanos;
    final HttpResponseParser parser = new HttpResponseParser();
    final RequestEncoder encoder;
    /** Closed model: the user's own lane; open model: the lane borrowed for the current request. */
    RequestStream lane;
    final boolean ownsLane;
    RequestSpec spec;
    /** The current request's operation ({@link Operations#indexOf}), found when it was sent. */
    int operation = -1;
    /** When the current request was meant to start: latency is measured from here. */
    long startNanos;
    /** When the current request was actually sent: the same in a closed model, maybe later in an open one. */
    long sentNanos;
    boolean busy;
    ByteBuffer out;
    long reconnectAt;
    /** Open model: a request to send as soon as the connection is established (intended start). */
    long pendingIntended = -1;

    /** {@code lane}: the user's own lane, or null for a connection that borrows one per request. */
    HttpConnection(RequestStream lane, byte[] fixedHeaders) {
        this.lane = lane;
        this.ownsLane = lane != null;
        this.encoder = new RequestEncoder(fixedHeaders);
    }
}
