package org.testbed.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP peer on loopback that sends back every byte it receives, on every connection: what a
 * client socket that the kernel connected to itself reads. Such a connection cannot be made on
 * purpose from a test (the client picks no source port), but its bytes are exactly these.
 */
final class EchoingPeer implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> connections = new CopyOnWriteArrayList<>();

    EchoingPeer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon("echo-accept", this::accept).start();
    }

    /** {@code 127.0.0.1:PORT}, for {@link MemcachedItemStore#connect}. */
    String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket connection = server.accept();
                connections.add(connection);
                daemon("echo", () -> echo(connection)).start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void echo(Socket connection) {
        try (connection; InputStream in = connection.getInputStream(); OutputStream out = connection.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException dropped) {
            // the client dropped the connection, or the peer is closing
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket connection : connections) {
            connection.close();
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
