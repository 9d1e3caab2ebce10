package org.testbed.toxiproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.toxiproxy.ToxiproxyClient.Proxy;

/**
 * A real Toxiproxy in front of a real memcached, spoken to in memcached's text protocol through the
 * proxy: the toxics the runner and the fault tests use do what they say. The time checks are lower
 * bounds (a delay cannot make a reply faster) or an upper bound a whole order of magnitude off.
 */
@Tag("process")
class ToxiproxyProcessTest {
    private static MemcachedProcess memcached;
    private static ToxiproxyProcess toxiproxy;

    @BeforeAll
    static void start() throws IOException {
        String reason = ToxiproxyBuild.unavailable(System.out).orElse(null);
        if (reason != null) {
            System.out.println("testbed: ToxiproxyProcessTest skipped: " + reason);
            Assumptions.abort(reason);
        }
        memcached = MemcachedProcess.start();
        toxiproxy = ToxiproxyProcess.start();
    }

    @AfterAll
    static void stop() {
        if (toxiproxy != null) {
            toxiproxy.close();
            assertThat(toxiproxy.isAlive()).as("toxiproxy after close").isFalse();
        }
        if (memcached != null) {
            memcached.close();
        }
    }

    @Test
    void aProxyForwardsToItsUpstreamFromAPortOfItsOwn() throws IOException {
        Proxy proxy = toxiproxy.client().createProxy("forwards", memcached.address());
        try {
            assertThat(proxy.upstream()).isEqualTo(memcached.address());
            assertThat(proxy.listen()).startsWith("127.0.0.1:").isNotEqualTo("127.0.0.1:0");
            try (Socket socket = connect(proxy)) {
                assertThat(roundTrip(socket, "set forwards 0 0 2\r\nok\r\n")).isEqualTo("STORED");
            }
        } finally {
            toxiproxy.client().deleteProxy("forwards");
        }
        assertThatThrownBy(() -> connect(proxy).close()).as("the port of a deleted proxy").isInstanceOf(IOException.class);
    }

    @Test
    void latencyDelaysEveryReplyUntilRemoved() throws IOException {
        Proxy proxy = toxiproxy.client().createProxy("latency", memcached.address());
        try (Socket socket = connect(proxy)) {
            toxiproxy.client().addLatency("latency", Duration.ofMillis(150), Duration.ZERO);
            long start = System.nanoTime();
            assertThat(roundTrip(socket, "version\r\n")).startsWith("VERSION");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(150));

            toxiproxy.client().removeLatency("latency");
            toxiproxy.client().addLatency("latency", Duration.ofSeconds(2), Duration.ZERO);
            toxiproxy.client().removeLatency("latency");
            start = System.nanoTime();
            assertThat(roundTrip(socket, "version\r\n")).startsWith("VERSION");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("after removal").isLessThan(Duration.ofSeconds(2));
        } finally {
            toxiproxy.client().deleteProxy("latency");
        }
    }

    @Test
    void timeoutStallsAndResetPeerCutsTheConnection() throws IOException {
        Proxy proxy = toxiproxy.client().createProxy("faults", memcached.address());
        try {
            toxiproxy.client().addToxic("faults", Toxic.timeout(Duration.ZERO));
            try (Socket socket = connect(proxy)) {
                socket.setSoTimeout(300);
                assertThatThrownBy(() -> roundTrip(socket, "version\r\n")).as("a stalled store").isInstanceOf(SocketTimeoutException.class);
            }
            toxiproxy.client().removeToxic("faults", Toxic.timeout(Duration.ZERO).name());

            toxiproxy.client().addToxic("faults", Toxic.resetPeer(Duration.ZERO));
            try (Socket socket = connect(proxy)) {
                socket.setSoTimeout(5000);
                assertThatThrownBy(() -> roundTrip(socket, "version\r\n")).as("a reset connection").isInstanceOf(IOException.class)
                        .isNotInstanceOf(SocketTimeoutException.class);
            }
        } finally {
            toxiproxy.client().deleteProxy("faults");
        }
    }

    @Test
    void refusalsOfTheApiAreReportedWithItsMessage() {
        assertThatThrownBy(() -> toxiproxy.client().removeToxic("no-such-proxy", "latency_downstream"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("404");
        assertThat(toxiproxy.client().version()).isNotBlank();
    }

    private static Socket connect(Proxy proxy) throws IOException {
        int colon = proxy.listen().lastIndexOf(':');
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(proxy.listen().substring(0, colon), Integer.parseInt(proxy.listen().substring(colon + 1))), 2000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Sends a memcached command and reads its first reply line; end of stream is an IOException. */
    private static String roundTrip(Socket socket, String command) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(command.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
