package org.testbed.driver;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where load goes: a loopback address, or the server's machine a user named explicitly
 * ({@code run --server-host}, see {@link #allowNamedServer}); the runner never sends load anywhere
 * else. Over HTTP or, with {@code tls}, HTTPS.
 */
public record Target(String host, int port, boolean tls) {
    /** The addresses of server machines named on the command line: the only non-loopback targets. */
    private static final Set<String> NAMED_SERVERS = ConcurrentHashMap.newKeySet();

    public Target {
        if (!host.equals("127.0.0.1") && !host.equals("localhost") && !host.equals("::1") && !host.startsWith("127.")
                && !NAMED_SERVERS.contains(host)) {
            throw new IllegalArgumentException("load only ever targets the loopback interface or the --server-host"
                    + " named, not " + host);
        }
    }

    /** Lets load go to {@code host}: the address of the server's machine the user named with {@code --server-host}. */
    public static void allowNamedServer(String host) {
        NAMED_SERVERS.add(host.replace("[", "").replace("]", ""));
    }

    /** {@code http://...} or {@code https://...}. */
    public static Target of(URI base) {
        String scheme = base.getScheme() == null ? "http" : base.getScheme();
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("load goes to http:// or https:// URLs, not " + base);
        }
        return new Target(base.getHost().replace("[", "").replace("]", ""), base.getPort(), scheme.equals("https"));
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }

    /** {@code host:port} as the Host header and wrk's URL want it. */
    public String authority() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    public String url() {
        return (tls ? "https://" : "http://") + authority();
    }
}
