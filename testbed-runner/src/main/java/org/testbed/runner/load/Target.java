package org.testbed.runner.load;

import java.net.InetSocketAddress;
import java.net.URI;

/**
 * Where load goes: always a loopback address (the runner never sends load anywhere else), over
 * HTTP or, with {@code tls}, HTTPS.
 */
public record Target(String host, int port, boolean tls) {
    public Target {
        if (!host.equals("127.0.0.1") && !host.equals("localhost") && !host.equals("::1") && !host.startsWith("127.")) {
            throw new IllegalArgumentException("load only ever targets the loopback interface, not " + host);
        }
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
