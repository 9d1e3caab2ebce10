package org.testbed.runner.load;

import java.net.InetSocketAddress;
import java.net.URI;

/** Where load goes: always a loopback address (the runner never sends load anywhere else). */
public record Target(String host, int port) {
    public Target {
        if (!host.equals("127.0.0.1") && !host.equals("localhost") && !host.equals("::1") && !host.startsWith("127.")) {
            throw new IllegalArgumentException("load only ever targets the loopback interface, not " + host);
        }
    }

    public static Target of(URI base) {
        return new Target(base.getHost().replace("[", "").replace("]", ""), base.getPort());
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }

    /** {@code host:port} as the Host header and wrk's URL want it. */
    public String authority() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    public String url() {
        return "http://" + authority();
    }
}
