package org.testbed.driver;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * HTTP over TLS on one connection, with the JDK's {@link SSLEngine}: one handshake when the
 * connection opens, then every request wrapped into TLS records and every response unwrapped, for
 * as long as the connection is kept alive. A reconnect makes a new transport, so a new handshake.
 *
 * <p>The engine's two network buffers (one record each way, about 16 KiB) belong to the
 * connection; decrypted bytes go through the loop's shared read buffer into the response parser.
 * Single-threaded like its event loop: the engine's delegated tasks run inline.
 */
final class TlsTransport implements Transport {
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    /** Records from the server not unwrapped yet; kept in write mode (filled up to its position). */
    private final ByteBuffer netIn;
    /** Records for the server not written yet; kept in read mode (pending between position and limit). */
    private final ByteBuffer netOut;

    TlsTransport(SSLEngine engine) throws SSLException {
        this.engine = engine;
        int packet = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(packet);
        this.netOut = ByteBuffer.allocate(packet);
        netOut.flip();
        engine.beginHandshake();
    }

    @Override
    public boolean handshakes() {
        return true;
    }

    @Override
    public boolean handshake(SocketChannel channel) throws IOException {
        while (true) {
            if (!flush(channel)) {
                return false;
            }
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> wrap(NOTHING);
                case NEED_TASK -> runTasks();
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (!unwrapHandshake(channel)) {
                        return false;
                    }
                }
                default -> {
                    return true; // NOT_HANDSHAKING (FINISHED is only ever a result's status)
                }
            }
        }
    }

    /** One handshake message from the server; false when the socket has no more bytes yet. */
    private boolean unwrapHandshake(SocketChannel channel) throws IOException {
        netIn.flip();
        SSLEngineResult result;
        try {
            result = engine.unwrap(netIn, NOTHING);
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                // Not expected (the server sends no data before the request), but never lose a record.
                result = engine.unwrap(netIn, ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()));
            }
        } finally {
            netIn.compact();
        }
        switch (result.getStatus()) {
            case OK -> {
                return true;
            }
            case BUFFER_UNDERFLOW -> {
                int n = channel.read(netIn);
                if (n < 0) {
                    throw new EOFException("the server closed the connection during the TLS handshake");
                }
                return n > 0;
            }
            case CLOSED -> throw new EOFException("the server closed TLS during the handshake");
            default -> throw new SSLException("TLS handshake: unexpected " + result.getStatus());
        }
    }

    @Override
    public boolean write(SocketChannel channel, ByteBuffer request) throws IOException {
        if (!flush(channel)) {
            return false;
        }
        while (request.hasRemaining()) {
            wrap(request);
            if (!flush(channel)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean wantsWrite() {
        return netOut.hasRemaining();
    }

    @Override
    public int read(SocketChannel channel, ByteBuffer scratch, HttpResponseParser parser) throws IOException {
        int n = channel.read(netIn);
        if (n < 0) {
            return -1;
        }
        netIn.flip();
        try {
            while (netIn.hasRemaining()) {
                scratch.clear();
                SSLEngineResult result = engine.unwrap(netIn, scratch);
                scratch.flip();
                if (scratch.hasRemaining()) {
                    parser.append(scratch);
                }
                if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                    break; // the rest of a record is still on its way
                }
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    return -1;
                }
                if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    throw new SSLException("a TLS record larger than the read buffer (" + scratch.capacity() + " bytes)");
                }
                // After the handshake the server may still send messages (TLS 1.3 session tickets,
                // a key update): the engine processes them as it unwraps, and may need to answer.
                afterUnwrap(channel, result);
                if (result.bytesConsumed() == 0) {
                    break;
                }
            }
        } finally {
            netIn.compact();
        }
        return n;
    }

    private void afterUnwrap(SocketChannel channel, SSLEngineResult result) throws IOException {
        SSLEngineResult.HandshakeStatus status = result.getHandshakeStatus();
        while (status == SSLEngineResult.HandshakeStatus.NEED_TASK || status == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
            if (status == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                runTasks();
            } else {
                wrap(NOTHING);
                if (!flush(channel)) {
                    return; // the next write flushes it first
                }
            }
            status = engine.getHandshakeStatus();
        }
    }

    /** Wraps {@code source} into one record in {@link #netOut}, which must be empty. */
    private void wrap(ByteBuffer source) throws IOException {
        netOut.clear();
        SSLEngineResult result;
        try {
            result = engine.wrap(source, netOut);
        } finally {
            netOut.flip();
        }
        if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new EOFException("TLS is closed");
        }
        if (result.getStatus() != SSLEngineResult.Status.OK) {
            throw new SSLException("TLS wrap: unexpected " + result.getStatus());
        }
    }

    /** Writes pending records; true when none are left. */
    private boolean flush(SocketChannel channel) throws IOException {
        while (netOut.hasRemaining()) {
            if (channel.write(netOut) == 0) {
                return false;
            }
        }
        return true;
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }
}
