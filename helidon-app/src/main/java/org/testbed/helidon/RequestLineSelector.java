package org.testbed.helidon;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.Bytes;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.Set;

/**
 * Looks at a new connection's first request line before Helidon's HTTP/1.1 selector does. Helidon
 * takes a connection only when that line ends in {@code HTTP/1.1}, and closes any other without
 * a word; the contract wants an answer:
 * <ul>
 *   <li>{@code HTTP/1.0}: served, and closed after the answer;</li>
 *   <li>anything else that is not an HTTP/1.1 request line (garbage, a TLS ClientHello on the plain
 *       port, bare LF line ends, a method that is not upper case, which Helidon would take as the
 *       upper-case one): a 400 problem, and the connection closed.</li>
 * </ul>
 * {@link Http10Connection} does either. A first line that looks like HTTP/1.1 is left to Helidon. Only a connection's first request
 * comes here: later requests on a kept-alive connection are Helidon's parser's alone.
 */
final class RequestLineSelector implements ServerConnectionSelector {
    private static final String HTTP_1_1 = " HTTP/1.1\r";
    private static final String HTTP_1_0 = " HTTP/1.0\r";

    private final Http1Config http1;

    RequestLineSelector(Http1Config http1) {
        this.http1 = http1;
    }

    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    @Override
    public Support supports(BufferData data) {
        BufferData copy = data.copy();
        int lf = copy.indexOf(Bytes.LF_BYTE);
        if (lf == -1) {
            return Support.UNSUPPORTED; // Helidon's selector answers a request line too long
        }
        String line = copy.readString(lf);
        if (line.endsWith(HTTP_1_1) && upperCaseMethod(line)) {
            return Support.UNSUPPORTED;
        }
        return Support.SUPPORTED;
    }

    /** RFC 9110: methods are case-sensitive; Helidon reads {@code get} as {@code GET}. */
    private static boolean upperCaseMethod(String line) {
        int space = line.indexOf(' ');
        if (space <= 0) {
            return false;
        }
        for (int i = 0; i < space; i++) {
            char c = line.charAt(i);
            if (c < 'A' || c > 'Z') {
                return false;
            }
        }
        return true;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return Set.of();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new Http10Connection(ctx, http1);
    }
}
