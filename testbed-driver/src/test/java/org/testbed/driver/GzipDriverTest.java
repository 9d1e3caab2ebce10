package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The driver with gzip on: it asks for gzip, inflates what comes compressed and checks the inflated body. */
@Timeout(60)
class GzipDriverTest {

    @Test
    void gzipBodiesAreInflatedCheckedAndCounted() throws Exception {
        try (PlaintextServer server = new PlaintextServer()) {
            server.gzip = true;
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64, true).run(server.target(),
                    PlaintextServer.plaintext(), Level.closed(2), Duration.ofMillis(700), 1);
            assertThat(r.requests()).isGreaterThan(10);
            assertThat(r.errors()).as(r.raw()).isZero();
            assertThat(r.gzipResponses()).isEqualTo(r.requests());
        }
    }

    @Test
    void aWrongBodyInsideTheGzipIsAnError() throws Exception {
        try (PlaintextServer server = new PlaintextServer()) {
            server.gzip = true;
            server.body = "Goodbye";
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64, true).run(server.target(),
                    PlaintextServer.plaintext(), Level.closed(2), Duration.ofMillis(500), 1);
            assertThat(r.requests()).isPositive();
            assertThat(r.errors()).isEqualTo(r.requests());
            assertThat(r.raw()).contains("plaintext: body is not Hello, World!");
        }
    }

    @Test
    void aBodyThatDoesNotInflateIsAnError() throws Exception {
        try (PlaintextServer server = new PlaintextServer()) {
            server.gzip = true;
            server.corruptGzip = true;
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64, true).run(server.target(),
                    PlaintextServer.plaintext(), Level.closed(1), Duration.ofMillis(500), 1);
            assertThat(r.requests()).isPositive();
            assertThat(r.errors()).isEqualTo(r.requests());
            assertThat(r.raw()).contains("the gzip body does not inflate");
        }
    }

    @Test
    void withoutGzipNothingIsAskedForAndNothingComesCompressed() throws Exception {
        try (PlaintextServer server = new PlaintextServer()) {
            server.gzip = true; // would compress, but only when the request accepts gzip
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(server.target(), PlaintextServer.plaintext(),
                    Level.closed(2), Duration.ofMillis(500), 1);
            assertThat(r.errors()).as(r.raw()).isZero();
            assertThat(r.gzipResponses()).isZero();
        }
    }

    @Test
    void overTlsToo() throws Exception {
        try (PlaintextServer server = new PlaintextServer(true)) {
            server.gzip = true;
            LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64, true).run(server.target(),
                    PlaintextServer.plaintext(), Level.closed(2), Duration.ofMillis(700), 1);
            assertThat(r.errors()).as(r.raw()).isZero();
            assertThat(r.gzipResponses()).isEqualTo(r.requests()).isPositive();
            assertThat(r.tlsHandshakes()).isEqualTo(2);
        }
    }
}
