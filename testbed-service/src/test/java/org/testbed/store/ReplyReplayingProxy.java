package org.testbed.store;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP proxy in front of a real memcached that can send its client, on demand, a second
 * copy of the last reply memcached sent: a reply on the wire that no operation in flight is waiting
 * for, which is what a store reading replies out of turn would take for the next operation's.
 *
 * <p>It forwards requests and replies whole (a binary frame is a 24-byte header and the body length
 * it states), so a copy always lands between two replies, and it counts the requests, so a test
 * knows when its operations are on the wire. Only the newest client
 * connection is served a copy; a store that drops its connection comes back on a new one.
 */
final class ReplyReplayingProxy implements AutoCloseable {
    private static final int HEADER = 24;

    private final ServerSocket server;
    private final InetSocketAddress upstream;
    private final List<Socket> sockets = new ArrayList<>();
    private OutputStream client;
    private byte[] lastReply;
    private int requests;
    private final Thread acceptor;

    ReplyReplayingProxy(String memcachedAddress) throws IOException {
        String[] hostPort = memcachedAddress.split(":");
        this.upstream = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        this.server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        this.acceptor = daemon("proxy-accept", this::accept);
        acceptor.start();
    }

    /** {@code 127.0.0.1:PORT}, for {@link MemcachedItemStore#connect}. */
    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Sends the newest client a copy of the last reply it got; false if there was none yet. */
    synchronized boolean replayLastReply() throws IOException {
        if (client == null || lastReply == null) {
            return false;
        }
        client.write(lastReply);
        client.flush();
        return true;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket downstream = server.accept();
                Socket up = new Socket();
                up.connect(upstream, 2000);
                downstream.setTcpNoDelay(true);
                up.setTcpNoDelay(true);
                OutputStream toClient = downstream.getOutputStream();
                synchronized (this) {
                    sockets.add(downstream);
                    sockets.add(up);
                    client = toClient;
                }
                daemon("proxy-requests", () -> requests(downstream, up)).start();
                daemon("proxy-replies", () -> replies(up, downstream, toClient)).start();
            } catch (IOException closedOrRefused) {
                // closed: the loop ends; refused: the client's connection is dropped, it retries
            }
        }
    }

    /** Forwards whole requests, counting them. */
    private void requests(Socket from, Socket to) {
        try (DataInputStream in = new DataInputStream(from.getInputStream()); OutputStream out = to.getOutputStream()) {
            while (true) {
                byte[] request = readFrame(in);
                out.write(request);
                out.flush();
                synchronized (this) {
                    requests++;
                    notifyAll();
                }
            }
        } catch (IOException | RuntimeException closed) {
            // either side closed: the other pump ends too
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** One binary frame: the 24-byte header and the body length it states (bytes 8 to 11). */
    private static byte[] readFrame(DataInputStream in) throws IOException {
        byte[] header = new byte[HEADER];
        in.readFully(header);
        int bodyLength = ((header[8] & 0xff) << 24) | ((header[9] & 0xff) << 16)
                | ((header[10] & 0xff) << 8) | (header[11] & 0xff);
        byte[] frame = new byte[HEADER + bodyLength];
        System.arraycopy(header, 0, frame, 0, HEADER);
        in.readFully(frame, HEADER, bodyLength);
        return frame;
    }

    /** Requests forwarded to memcached so far, on every connection. */
    synchronized int requests() {
        return requests;
    }

    /** Waits (at most {@code millis}) until {@code count} requests in all have been forwarded. */
    synchronized boolean awaitRequests(int count, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (requests < count) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    /** Forwards whole replies, remembering the last one. */
    private void replies(Socket from, Socket to, OutputStream toClient) {
        try (DataInputStream in = new DataInputStream(from.getInputStream())) {
            while (true) {
                byte[] reply = readFrame(in);
                synchronized (this) {
                    toClient.write(reply);
                    toClient.flush();
                    lastReply = reply;
                }
            }
        } catch (EOFException | RuntimeException e) {
            // memcached closed the connection
        } catch (IOException closed) {
            // either side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    @Override
    public synchronized void close() {
        closeQuietly(server);
        sockets.forEach(ReplyReplayingProxy::closeQuietly);
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing anyway
        }
    }
}
