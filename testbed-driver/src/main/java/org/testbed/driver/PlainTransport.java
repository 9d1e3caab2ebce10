package org.testbed.driver;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** HTTP straight on the socket: no state, one instance shared by every connection. */
final class PlainTransport implements Transport {
    static final PlainTransport INSTANCE = new PlainTransport();

    private PlainTransport() {
    }

    @Override
    public boolean handshake(SocketChannel channel) {
        return true;
    }

    @Override
    public boolean handshakes() {
        return false;
    }

    @Override
    public boolean write(SocketChannel channel, ByteBuffer request) throws IOException {
        channel.write(request);
        return !request.hasRemaining();
    }

    @Override
    public boolean wantsWrite() {
        return false;
    }

    @Override
    public int read(SocketChannel channel, ByteBuffer scratch, HttpResponseParser parser) throws IOException {
        scratch.clear();
        int n = channel.read(scratch);
        if (n > 0) {
            scratch.flip();
            parser.append(scratch);
        }
        return n;
    }
}
