package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.contract.RawConnection.RawResponse;
import org.testbed.variant.Variant;

/**
 * What a variant exposes beyond the contract, and how it meets requests that are not HTTP as it
 * should be: it listens only on the address it was given, has no actuator, debug or admin
 * endpoint under any method or path trick, enforces its body and header limits, and answers
 * malformed requests with a problem (or, where documented, by closing the connection), never a
 * stack trace, and goes on serving. Run once per variant, like the contract suite.
 */
@ParallelSafe
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
@StartedVariant(log = "exposure")
class ExposureIT {
    private static final int MAX_BODY = 65536;
    /** Far above every container's 8 KiB limit for a request line or a header block. */
    private static final int OVERSIZE_HEAD = 64 * 1024;
    private static final String SECRET = "exposure-probe-secret-7f3a";

    /**
     * Broken chunk framing is found only while the body is read, after the request was handed to
     * the application: Vert.x and Tomcat's non-blocking reads then close the connection without an
     * answer (docs/CONTRACT.md). That is no 5xx and no stack trace, so it is accepted, for these only.
     */
    private static final java.util.Set<String> MAY_CLOSE = java.util.Set.of("invalid chunk framing", "a chunk size too large");
    /**
     * Requests RFC 9112 lets a server either refuse or serve: Transfer-Encoding overriding
     * Content-Length (then closing), an obs-fold unfolded into a space, an absolute-form target
     * whose host wins over Host, and {@code OPTIONS *} (valid HTTP; Tomcat answers it itself, 200
     * with an empty body, exposing nothing). Tomcat and Vert.x serve them, Jetty refuses: either is fine, a 5xx
     * or a stack trace is not. (Two Host headers are not among them: the RFC says 400, and it is.)
     */
    private static final java.util.Set<String> RFC_LENIENCY = java.util.Set.of("Content-Length and Transfer-Encoding",
            "a folded header line", "an absolute-form target of another host", "an asterisk target");

    private static final AtomicInteger CHECKS = new AtomicInteger();

    private final Variant variant;
    private final RunningVariant running;
    private final URI base;

    ExposureIT(Variant variant, RunningVariant running) {
        this.variant = variant;
        this.running = running;
        this.base = running.process.baseUri();
    }

    @BeforeParameterizedClassInvocation
    static void resetCount() {
        CHECKS.set(0);
    }

    @AfterParameterizedClassInvocation
    static void recordCount(Variant variant) {
        RobustnessSummary.record(variant.name(), "exposure_checks", CHECKS.get());
    }

    private String host() {
        return base.getHost() + ":" + base.getPort();
    }

    // ---- (a) the bind address ----

    /**
     * Started with {@code --host 127.0.0.1}, a variant must not answer on another address of the
     * same machine: 127.0.0.2 (Linux routes all of 127/8 to the loopback interface, so a server on
     * the wildcard address would answer there) and the IPv6 loopback {@code ::1}.
     */
    @Test
    void listensOnlyOnTheAddressItWasGiven() throws IOException {
        int port = base.getPort();
        assertThat(base.getHost()).isEqualTo("127.0.0.1");
        for (String other : List.of("127.0.0.2", "::1")) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(other), port);
            assertThatThrownBy(() -> {
                try (Socket socket = new Socket()) {
                    socket.connect(address, 2000);
                }
            }).as("%s: connecting to %s", variant.name(), address).isInstanceOf(ConnectException.class);
            CHECKS.incrementAndGet();
        }
        assertThat(running.http.get("/testbed/health").status()).isEqualTo(200);
        CHECKS.incrementAndGet();
    }

    // ---- (b) nothing but the contract ----

    /**
     * Spring Boot's actuator, Tomcat's manager, Jolokia, H2's console, server-status pages, files a
     * container might serve (WEB-INF, META-INF, .env), reached directly or through dot segments and
     * their escapes, under every common method: each is a problem with 404, 405 or 400, never 200
     * and never HTML. TRACE must not echo the request back (cross-site tracing).
     */
    @Test
    void hasNoActuatorDebugOrAdminEndpoint() {
        List<String> paths = List.of("/", "/testbed", "/testbed/", "/actuator", "/actuator/health", "/actuator/env",
                "/actuator/heapdump", "/actuator/threaddump", "/actuator/mappings", "/actuator/beans",
                "/actuator/shutdown", "/actuator/loggers", "/env", "/heapdump", "/health", "/info", "/jolokia",
                "/jolokia/list", "/manager/html", "/manager/text/list", "/host-manager/html", "/admin", "/debug",
                "/debug/pprof", "/console", "/h2-console", "/metrics", "/prometheus", "/trace", "/server-status",
                "/server-info", "/status", "/.env", "/.git/config", "/WEB-INF/web.xml", "/META-INF/MANIFEST.MF",
                "/testbed/WEB-INF/web.xml", "/testbed/META-INF/MANIFEST.MF", "/testbed/../actuator",
                "/testbed/%2e%2e/actuator", "/testbed/%2E%2E/actuator/env", "/testbed/..%2factuator",
                "/testbed/items/../../actuator/env", "/testbed/./actuator", "/testbed/;/actuator", "/;/actuator",
                "/actuator;a=b/env", "/testbed/items/..;/..;/actuator", "//actuator", "/testbed//actuator",
                "/%61ctuator", "/ACTUATOR", "/error", "/testbed/error", "/favicon.ico", "/index.html",
                "/swagger-ui.html", "/v3/api-docs", "/graphql", "/cgi-bin/test", "/testbed/health/../../actuator/env");
        for (String path : paths) {
            for (String method : List.of("GET", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH")) {
                String what = variant.name() + ": " + method + " " + path;
                RawRequest request = RawRequest.of(method, path, host()).header("X-Probe", SECRET)
                        .header("Cookie", "session=" + SECRET);
                if (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
                    request.header("Content-Type", "application/json").body("{\"name\":\"n\"}".getBytes(StandardCharsets.UTF_8));
                }
                RawResponse response = fresh(request);
                RawClient.checkAnswer(what, response);
                assertThat(response.status()).as("%s: nothing there; body %s", what, response.toReply().text())
                        .isIn(400, 404, 405);
                HttpProbe.assertProblem(what, response.toReply(), response.status());
                assertThat(response.toReply().text()).as("%s: request not echoed", what).doesNotContain(SECRET);
                assertThat(response.headers().toString()).as("%s: request not echoed in headers", what).doesNotContain(SECRET);
                CHECKS.incrementAndGet();
            }
        }
        // The contract's own paths do not answer TRACE either.
        for (String path : List.of("/testbed/items/some-id", "/testbed/health", "/testbed/plaintext")) {
            RawResponse response = fresh(RawRequest.of("TRACE", path, host()).header("X-Probe", SECRET));
            HttpProbe.assertProblem(variant.name() + ": TRACE " + path, response.toReply(), 405);
            assertThat(response.toReply().text()).doesNotContain(SECRET);
            CHECKS.incrementAndGet();
        }
    }

    // ---- (c) limits ----

    @Test
    void theBodyLimitHoldsForDeclaredAndChunkedBodies() {
        byte[] over = validBody(MAX_BODY + 1);
        RawResponse declared = fresh(RawRequest.of("PUT", "/testbed/items/exposure-declared", host())
                .header("Content-Type", "application/json").body(over));
        HttpProbe.assertProblem(variant.name() + ": declared " + over.length + " bytes", declared.toReply(), 413);
        CHECKS.incrementAndGet();
        for (int chunk : new int[] {1000, 8192, MAX_BODY + 1}) {
            RawResponse chunked = fresh(RawRequest.of("PUT", "/testbed/items/exposure-chunked-" + chunk, host())
                    .header("Content-Type", "application/json").header("Transfer-Encoding", "chunked")
                    .body(chunked(over, chunk)));
            HttpProbe.assertProblem(variant.name() + ": chunked " + over.length + " bytes in chunks of " + chunk,
                    chunked.toReply(), 413);
            assertThat(running.http.get("/testbed/items/exposure-chunked-" + chunk).status()).isEqualTo(404);
            CHECKS.incrementAndGet();
        }
        // At the limit, chunked, it is stored.
        RawResponse fits = fresh(RawRequest.of("PUT", "/testbed/items/exposure-chunked-fits", host())
                .header("Content-Type", "application/json").header("Transfer-Encoding", "chunked")
                .body(chunked(validBody(MAX_BODY), 4096)));
        assertThat(fits.status()).as("%s: chunked body of exactly the limit", variant.name()).isEqualTo(201);
        CHECKS.incrementAndGet();
        assertServing();
    }

    /**
     * A request line or a header block of 64 KiB, eight times any container's limit, is refused
     * with 414, 431 or 400 and a problem body, and the server goes on serving others.
     */
    @Test
    void oversizeRequestLinesAndHeadersAreRefused() {
        Map<String, RawRequest> cases = new LinkedHashMap<>();
        cases.put("request line of 64 KiB", RawRequest.of("GET", "/testbed/items/" + "a".repeat(OVERSIZE_HEAD), host()));
        cases.put("query of 64 KiB", RawRequest.of("GET", "/testbed/delay?ms=1&x=" + "a".repeat(OVERSIZE_HEAD), host()));
        cases.put("one header of 64 KiB", RawRequest.of("GET", "/testbed/health", host())
                .header("X-Filler", "b".repeat(OVERSIZE_HEAD)));
        RawRequest many = RawRequest.of("GET", "/testbed/health", host());
        for (int i = 0; i < OVERSIZE_HEAD / 64; i++) {
            many.header("X-Filler-" + i, "c".repeat(50));
        }
        cases.put("1024 headers, 64 KiB in all", many);
        for (Map.Entry<String, RawRequest> c : cases.entrySet()) {
            String what = variant.name() + ": " + c.getKey();
            RawResponse response = fresh(c.getValue());
            RawClient.checkAnswer(what, response);
            assertThat(response.status()).as("%s: refused", what).isIn(400, 414, 431);
            HttpProbe.assertProblem(what, response.toReply(), response.status());
            CHECKS.incrementAndGet();
            assertServing();
        }
    }

    // ---- (d) malformed requests ----

    /**
     * Requests that are not HTTP as it should be: each gets a 4xx problem without a stack trace in
     * body or headers, and the server goes on serving. The few a container refuses below HTTP, by
     * closing the connection without an answer, are listed in the contract.
     */
    @Test
    void malformedRequestsGetAProblemAndNoStackTrace() {
        String h = "Host: " + host() + "\r\n";
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("a bad request line", "GARBAGE\r\n\r\n");
        cases.put("a request line of three words that are not HTTP", "this is not\r\n" + h + "\r\n");
        cases.put("a lower-case method", "get /testbed/health HTTP/1.1\r\n" + h + "\r\n");
        cases.put("a bad percent-encoding", "GET /testbed/items/a%ZZ HTTP/1.1\r\n" + h + "\r\n");
        cases.put("a truncated percent-encoding", "GET /testbed/items/a% HTTP/1.1\r\n" + h + "\r\n");
        cases.put("an encoded NUL", "GET /testbed/items/a%00b HTTP/1.1\r\n" + h + "\r\n");
        cases.put("a bad percent-encoding in the query", "GET /testbed/delay?ms=%ZZ HTTP/1.1\r\n" + h + "\r\n");
        cases.put("invalid chunk framing", "PUT /testbed/items/exposure-chunks HTTP/1.1\r\n" + h
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");
        cases.put("a chunk size too large", "PUT /testbed/items/exposure-chunks HTTP/1.1\r\n" + h
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n");
        cases.put("an unknown transfer coding", "PUT /testbed/items/exposure-chunks HTTP/1.1\r\n" + h
                + "Content-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n{}");
        cases.put("HTTP/1.1 without Host", "GET /testbed/health HTTP/1.1\r\n\r\n");
        cases.put("two Hosts", "GET /testbed/health HTTP/1.1\r\n" + h + h + "\r\n");
        cases.put("duplicate Content-Length", "PUT /testbed/items/exposure-cl HTTP/1.1\r\n" + h
                + "Content-Type: application/json\r\nContent-Length: 12\r\nContent-Length: 13\r\n\r\n{\"name\":\"n\"} ");
        cases.put("a negative Content-Length", "PUT /testbed/items/exposure-cl HTTP/1.1\r\n" + h
                + "Content-Type: application/json\r\nContent-Length: -1\r\n\r\n");
        cases.put("a non-numeric Content-Length", "PUT /testbed/items/exposure-cl HTTP/1.1\r\n" + h
                + "Content-Type: application/json\r\nContent-Length: 12a\r\n\r\n{\"name\":\"n\"}");
        cases.put("Content-Length and Transfer-Encoding", "PUT /testbed/items/exposure-te HTTP/1.1\r\n" + h
                + "Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "c\r\n{\"name\":\"n\"}\r\n0\r\n\r\n");
        cases.put("a header line without a colon", "GET /testbed/health HTTP/1.1\r\n" + h + "NoColonHere\r\n\r\n");
        cases.put("a folded header line", "GET /testbed/health HTTP/1.1\r\n" + h + "X-A: a\r\n  folded\r\n\r\n");
        cases.put("a space before the colon", "GET /testbed/health HTTP/1.1\r\n" + h + "X-A : a\r\n\r\n");
        cases.put("a NUL in a header value", "GET /testbed/health HTTP/1.1\r\n" + h + "X-A: a\u0000b\r\n\r\n");
        cases.put("bare LF line ends and a bad target", "GET testbed/health HTTP/1.1\n" + h.replace("\r", "") + "\n");
        cases.put("an absolute-form target of another host", "GET http://example.invalid:1/testbed/health HTTP/1.1\r\n"
                + h + "\r\n");
        cases.put("a CONNECT", "CONNECT example.invalid:443 HTTP/1.1\r\nHost: example.invalid:443\r\n\r\n");
        cases.put("an asterisk target", "OPTIONS * HTTP/1.1\r\n" + h + "\r\n");
        cases.put("a TLS ClientHello", "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003" + "\u0000".repeat(40)
                + "\r\n\r\n");
        cases.put("binary garbage", "\u0000\u00ff\u00fe\u0001\r\n\r\n");
        List<String> failures = new java.util.ArrayList<>();
        for (Map.Entry<String, String> c : cases.entrySet()) {
            String what = variant.name() + ": " + c.getKey();
            try {
                Optional<RawResponse> answer = send(c.getValue().getBytes(StandardCharsets.ISO_8859_1));
                if (answer.isEmpty()) {
                    assertThat(MAY_CLOSE).as("%s: an answer (only broken body framing may close the connection unanswered)",
                            what).contains(c.getKey());
                } else {
                    RawClient.checkAnswer(what, answer.get());
                    if (!RFC_LENIENCY.contains(c.getKey())) {
                        assertThat(answer.get().status()).as("%s: refused; body %s", what, answer.get().toReply().text())
                                .isBetween(400, 499);
                    }
                }
                CHECKS.incrementAndGet();
            } catch (AssertionError e) {
                failures.add(e.getMessage().strip());
            }
            assertServing();
        }
        assertThat(failures).as("malformed requests answered wrongly").isEmpty();
        // (exposure-te may be stored: a server may serve that request, see RFC_LENIENCY)
        for (String id : List.of("exposure-chunks", "exposure-cl")) {
            assertThat(running.http.get("/testbed/items/" + id).status()).as("%s: nothing stored as %s", variant.name(), id)
                    .isEqualTo(404);
        }
        // HTTP/1.0 needs no Host: it is served, and the connection closed after it.
        Optional<RawResponse> http10 = send("GET /testbed/health HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(http10).as("%s: HTTP/1.0 without Host", variant.name()).isPresent();
        RawClient.checkAnswer(variant.name() + ": HTTP/1.0 without Host", http10.get());
        assertThat(http10.get().status()).isEqualTo(200);
        CHECKS.incrementAndGet();
    }

    // ---- helpers ----

    /** The answer on a new connection; an answer must come. */
    private RawResponse fresh(RawRequest request) {
        try (RawClient client = new RawClient(base)) {
            return client.exchange(request);
        }
    }

    /** Raw bytes on a new connection: the answer, or empty if the server closed it without one. */
    private Optional<RawResponse> send(byte[] bytes) {
        try (RawConnection connection = new RawConnection(base)) {
            return Optional.of(connection.send(bytes, "GET"));
        } catch (RawConnection.NoAnswer closed) {
            return Optional.empty();
        } catch (IOException e) {
            throw new AssertionError(variant.name() + ": " + e, e);
        }
    }

    /** The server still serves, on a new connection. */
    private void assertServing() {
        assertThat(running.http.get("/testbed/health").status()).as("%s: still serving", variant.name()).isEqualTo(200);
    }

    private static byte[] validBody(int bytes) {
        String prefix = "{\"name\":\"n\",\"payload\":\"";
        return (prefix + "p".repeat(bytes - prefix.length() - 2) + "\"}").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] chunked(byte[] body, int chunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < body.length; i += chunk) {
            int n = Math.min(chunk, body.length - i);
            out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, i, n);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
