package org.testbed.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.Requests;

/** The benchmark client against a scripted server: it must read what the contract allows and refuse the rest. */
class KeepAliveClientTest {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);

    @Test
    void readsResponsesSplitAcrossPacketsOnOneConnection() throws Exception {
        String response = "HTTP/1.1 200 OK\r\nServer: testbed\r\ncontent-length: 13\r\nContent-Type: text/plain\r\n\r\nHello, World!";
        // First answer in single bytes, second in one write: both must parse the same.
        try (ScriptedServer server = new ScriptedServer(List.of(splitBytes(response), List.of(response)))) {
            KeepAliveClient client = KeepAliveClient.connect(server.uri());
            RequestSpec spec = Requests.plaintext();
            byte[] request = client.encode(spec);
            assertThat(client.exchange(request, spec, HELLO)).isEqualTo(200);
            assertThat(client.exchange(request, spec, HELLO)).isEqualTo(200);
            assertThat(client.header("server")).isEqualTo("testbed");
            client.close();
            assertThat(server.requests()).hasSize(2)
                    .allSatisfy(r -> assertThat(r).startsWith("GET /testbed/plaintext HTTP/1.1\r\nHost: 127.0.0.1:"));
        }
    }

    @Test
    void acceptsAnEquivalentJsonLayoutButNotAWrongBody() throws Exception {
        String spaced = "{ \"message\" : \"Hello, World!\" }";
        String wrong = "{\"message\":\"Hello\"}";
        try (ScriptedServer server = new ScriptedServer(List.of(
                List.of(ok(spaced)), List.of(ok(wrong))))) {
            KeepAliveClient client = KeepAliveClient.connect(server.uri());
            RequestSpec spec = Requests.json();
            byte[] request = client.encode(spec);
            byte[] exact = "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.UTF_8);
            assertThat(client.exchange(request, spec, exact)).isEqualTo(200);
            assertThatThrownBy(() -> client.exchange(request, spec, exact))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("json");
            client.close();
        }
    }

    @Test
    void refusesChunkedBodiesClosedConnectionsAndWrongStatus() throws Exception {
        String chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nd\r\nHello, World!\r\n0\r\n\r\n";
        String closing = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 13\r\n\r\nHello, World!";
        String notFound = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
        for (String response : List.of(chunked, closing, notFound)) {
            try (ScriptedServer server = new ScriptedServer(List.of(List.of(response)))) {
                KeepAliveClient client = KeepAliveClient.connect(server.uri());
                RequestSpec spec = Requests.plaintext();
                assertThatThrownBy(() -> client.exchange(client.encode(spec), spec, HELLO))
                        .as(response).isInstanceOf(RuntimeException.class);
                client.close();
            }
        }
    }

    private static String ok(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    private static List<String> splitBytes(String s) {
        return s.chars().mapToObj(c -> String.valueOf((char) c)).toList();
    }

    /** Answers each request on one connection with the next script: a list of separately flushed writes. */
    private static final class ScriptedServer implements AutoCloseable {
        private final ServerSocket socket;
        private final CompletableFuture<List<String>> seen;

        ScriptedServer(List<List<String>> answers) throws IOException {
            socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            seen = CompletableFuture.supplyAsync(() -> serve(answers));
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        List<String> requests() throws Exception {
            return seen.get(10, TimeUnit.SECONDS);
        }

        private List<String> serve(List<List<String>> answers) {
            List<String> requests = new java.util.ArrayList<>();
            try (Socket connection = socket.accept()) {
                connection.setTcpNoDelay(true);
                InputStream in = connection.getInputStream();
                OutputStream out = connection.getOutputStream();
                for (List<String> writes : answers) {
                    requests.add(readHead(in));
                    for (String write : writes) {
                        out.write(write.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
                in.read(); // wait for the client to close
            } catch (IOException e) {
                // the client hung up early: fine for the failure cases
            }
            return requests;
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int last4 = 0;
            int b;
            while (last4 != 0x0D0A0D0A && (b = in.read()) >= 0) { // up to and including CR LF CR LF
                head.write(b);
                last4 = (last4 << 8) | b;
            }
            return head.toString(StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
