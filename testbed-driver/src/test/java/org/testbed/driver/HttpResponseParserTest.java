package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpResponseParserTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void contentLengthResponseArrivingInPieces() {
        HttpResponseParser p = new HttpResponseParser();
        p.append(b("HTTP/1.1 201 Created\r\nETag: \"7\"\r\nContent-Le"));
        assertThat(p.complete()).isFalse();
        p.append(b("ngth: 5\r\n\r\nhel"));
        assertThat(p.complete()).isFalse();
        p.append(b("lo"));
        assertThat(p.complete()).isTrue();
        assertThat(p.status()).isEqualTo(201);
        assertThat(p.header("etag")).isEqualTo("\"7\"");
        assertThat(new String(p.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
        p.reset();
        p.append(b("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"));
        assertThat(p.complete()).isTrue();
        assertThat(p.body()).isEmpty();
        assertThat(p.connectionClose()).isTrue();
    }

    @Test
    void chunkedBody() {
        HttpResponseParser p = new HttpResponseParser();
        p.append(b("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHello\r\n8;ext=1\r\n, World!\r\n"));
        assertThat(p.complete()).isFalse();
        p.append(b("0\r\n\r\n"));
        assertThat(p.complete()).isTrue();
        assertThat(new String(p.body(), StandardCharsets.UTF_8)).isEqualTo("Hello, World!");
    }

    /**
     * Found by fuzzing: a length that is not digits was a NumberFormatException, a negative or huge one an
     * index error, a status of other characters a made-up number; each is now the parser's own error.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {
            "HTTP/1.1 200 OK\r\nContent-Length: 0\u00ff\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 2147483647\r\n\r\n",
            "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 021 Created\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffff\r\nhello\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n"})
    void malformedFramingIsTheParsersOwnError(String response) {
        HttpResponseParser p = new HttpResponseParser();
        p.append(b(response));
        org.assertj.core.api.Assertions.assertThatThrownBy(p::complete).isInstanceOf(IllegalStateException.class)
                .message().isNotBlank();
    }
}
