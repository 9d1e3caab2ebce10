package org.testbed.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * A client that starts a request and then stops sending, as a slow or stalled client (or a
 * slowloris attack) does; the server's idle timeout must close its connection. Plain HTTP only.
 */
final class SlowClient implements AutoCloseable {
    /** The shortest wait per read while checking: enough for bytes already in the buffer. */
    private static final Duration MIN_WAIT = Duration.ofMillis(20);

    private final Socket socket;

    /**
     * What the server did with the connection by a deadline: closed it ({@code closed}, by EOF or
     * a reset) or not, when that was seen, and the bytes it sent before (a 408 response, or nothing).
     */
    record Outcome(boolean closed, Instant seen, byte[] received) {
        String text() {
            return new String(received, StandardCharsets.ISO_8859_1);
        }
    }

    SlowClient(URI base) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5_000);
        socket.setTcpNoDelay(true); // each piece leaves at once, as a trickle
    }

    /** Writes {@code ascii} now; the caller decides how long to stall before the next piece. */
    void send(String ascii) throws IOException {
        socket.getOutputStream().write(ascii.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    /** Reads whatever the server sends until it closes the connection or {@code deadline} passes. */
    Outcome awaitClose(Instant deadline) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (true) {
            Duration left = Duration.between(Instant.now(), deadline);
            socket.setSoTimeout((int) Math.max(MIN_WAIT.toMillis(), left.toMillis()));
            try {
                int n = in.read(buffer);
                if (n < 0) {
                    return new Outcome(true, Instant.now(), received.toByteArray());
                }
                received.write(buffer, 0, n);
            } catch (SocketTimeoutException stillOpen) {
                return new Outcome(false, Instant.now(), received.toByteArray());
            } catch (SocketException reset) {
                return new Outcome(true, Instant.now(), received.toByteArray()); // closed with unread bytes: a reset
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
