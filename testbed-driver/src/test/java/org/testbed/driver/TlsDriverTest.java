package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The driver over HTTPS ({@link TlsTransport}) against the JDK's own HTTPS server on loopback. */
@Timeout(60)
class TlsDriverTest {

    @Test
    void keepAliveConnectionsHandshakeOnceAndCarryEveryRequest() throws Exception {
        try (PlaintextServer server = new PlaintextServer(true)) {
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(server.target(), PlaintextServer.plaintext(),
                    Level.closed(4), Duration.ofSeconds(1), 1);
            assertThat(r.errors()).as(r.raw()).isZero();
            assertThat(r.requests()).isGreaterThan(20);
            assertThat(r.tlsHandshakes()).as("one handshake per connection, not per request").isEqualTo(4);
            assertThat(server.served.get()).isGreaterThanOrEqualTo((int) r.requests());
            assertThat(r.raw()).contains("tls_handshakes=4");
        }
    }

    @Test
    void aConnectionTheServerClosesIsReopenedWithANewHandshake() throws Exception {
        try (PlaintextServer server = new PlaintextServer(true)) {
            server.closeEach = true;
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(server.target(), PlaintextServer.plaintext(),
                    Level.closed(2), Duration.ofSeconds(2), 1);
            assertThat(r.errors()).as(r.raw()).isZero();
            // More requests than the two first connections: some went over reopened ones (the JDK's
            // HTTPS server takes a few hundred ms per new connection here, so not many).
            assertThat(r.requests()).as(r.raw()).isGreaterThan(2);
            // Every response closes its connection: each request after the first on a connection needs a new one.
            assertThat(r.tlsHandshakes()).isGreaterThanOrEqualTo(r.requests());
        }
    }

    @Test
    void openModelOverTlsHandshakesOncePerConnectionItOpens() throws Exception {
        try (PlaintextServer server = new PlaintextServer(true)) {
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(server.target(), PlaintextServer.plaintext(),
                    Level.open(10), Duration.ofSeconds(2), 1);
            // The JDK's HTTPS server is slow (hundreds of ms per new connection here), so the rate is low
            // and only what the open model owes TLS is asserted: answers, and a handshake per connection opened.
            assertThat(r.errors()).as(r.raw()).isZero();
            assertThat(r.requests()).as(r.raw()).isPositive();
            assertThat(r.tlsHandshakes()).as(r.raw()).isPositive().isLessThanOrEqualTo(r.peakConnections());
        }
    }

    @Test
    void tlsAgainstAPlainServerFailsTheHandshake() throws Exception {
        try (PlaintextServer server = new PlaintextServer(false)) {
            Target plain = server.target();
            Target https = new Target(plain.host(), plain.port(), true);
            assertThatThrownBy(() -> new NioHttpDriver(Duration.ofSeconds(2), 64).run(https, PlaintextServer.plaintext(),
                    Level.closed(1), Duration.ofMillis(500), 1)).isInstanceOf(SSLException.class);
        }
    }

    @Test
    void plainHttpMakesNoHandshake() throws Exception {
        try (PlaintextServer server = new PlaintextServer(false)) {
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(server.target(), PlaintextServer.plaintext(),
                    Level.closed(2), Duration.ofMillis(500), 1);
            assertThat(r.requests()).isPositive();
            assertThat(r.tlsHandshakes()).isZero();
        }
    }
}
