package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /**
     * The bytes on the wire per response, as a socket of its own reads one answer: the driver counts
     * every byte of each answer (status line, headers, body), and a request that asks for gzip is its
     * {@code Accept-Encoding} line longer.
     */
    @Test
    void theBytesOfEachRequestAndResponseAreCounted() throws Exception {
        try (PlaintextServer server = new PlaintextServer()) {
            LoadResult plain = new NioHttpDriver(Duration.ofSeconds(5), 64).run(server.target(), PlaintextServer.plaintext(),
                    Level.closed(2), Duration.ofMillis(500), 1);
            LoadResult gzip = new NioHttpDriver(Duration.ofSeconds(5), 64, true).run(server.target(), PlaintextServer.plaintext(),
                    Level.closed(2), Duration.ofMillis(500), 1);
            assertThat(plain.errors()).as(plain.raw()).isZero();
            assertThat(plain.transport().exchanges()).isEqualTo(plain.requests()).isPositive();
            assertThat(plain.transport().responseBytesPerResponse()).isEqualTo(oneAnswer(server, "/testbed/plaintext"));
            assertThat(gzip.transport().requestBytesPerResponse() - plain.transport().requestBytesPerResponse())
                    .isEqualTo("Accept-Encoding: gzip\r\n".length());
            assertThat(plain.raw()).containsPattern("responses_counted=[1-9][0-9]* request_bytes=[1-9][0-9]* response_bytes=[1-9]");
        }
    }

    /** The bytes of one answer to a GET of {@code path}, read off a socket of its own to the end of its body. */
    private static int oneAnswer(PlaintextServer server, String path) throws Exception {
        try (Socket socket = new Socket(server.target().host(), server.target().port())) {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + server.target().authority() + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            while (true) {
                int b = in.read();
                if (b < 0) {
                    throw new IllegalStateException("the answer ended early: " + got);
                }
                got.write(b);
                String head = got.toString(StandardCharsets.ISO_8859_1);
                int end = head.indexOf("\r\n\r\n");
                if (end >= 0) {
                    Matcher length = Pattern.compile("(?i)content-length: *([0-9]+)").matcher(head);
                    assertThat(length.find()).as(head).isTrue();
                    int total = end + 4 + Integer.parseInt(length.group(1));
                    in.readNBytes(total - got.size());
                    return total;
                }
            }
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
