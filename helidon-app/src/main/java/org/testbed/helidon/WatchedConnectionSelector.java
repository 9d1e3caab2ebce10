package org.testbed.helidon;

import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.Set;

/**
 * Takes every connection before Helidon's HTTP/1.1 selector can, to make it a
 * {@link WatchedConnection}: one whose reads the {@link IdleCutter} watches, and whose first
 * request line is looked at before Helidon's HTTP/1.1 connection gets it (Helidon would close a
 * connection whose first line is not HTTP/1.1 without a word).
 */
final class WatchedConnectionSelector implements ServerConnectionSelector {
    private final Http1ConnectionSelector http1;
    private final int maxRequestLine;
    private final IdleCutter cutter;

    WatchedConnectionSelector(Http1Config http1, IdleCutter cutter) {
        this.http1 = Http1ConnectionSelector.builder().config(http1).build();
        this.maxRequestLine = http1.maxPrologueLength();
        this.cutter = cutter;
    }

    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    @Override
    public Support supports(BufferData data) {
        return Support.SUPPORTED;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new WatchedConnection(ctx, http1, maxRequestLine, cutter);
    }
}
