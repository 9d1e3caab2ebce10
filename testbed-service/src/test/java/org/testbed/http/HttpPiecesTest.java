package org.testbed.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.testbed.service.Delay;

/** Media types, ETags, routes, bounded bodies, problem bodies and the delay parameter. */
class HttpPiecesTest {

    @Test
    void onlyJsonInUtf8IsJson() {
        assertThat(MediaTypes.isJson("application/json")).isTrue();
        assertThat(MediaTypes.isJson("Application/JSON; charset=\"utf-8\"")).isTrue();
        assertThat(MediaTypes.isJson("application/json;charset=UTF-8;")).isTrue();
        assertThat(MediaTypes.isJson(null)).isFalse();
        assertThat(MediaTypes.isJson("text/plain")).isFalse();
        assertThat(MediaTypes.isJson("application/jsonx")).isFalse();
        assertThat(MediaTypes.isJson("application/json; charset=latin1")).isFalse();
        assertThat(MediaTypes.isJson("application/json; garbage")).isFalse();
    }

    @Test
    void etagsRoundTripTheCasAndRejectWhatCannotMatch() {
        assertThat(ETags.STRONG.casOf(ETags.STRONG.of(0xfedcba9876543210L))).isEqualTo(0xfedcba9876543210L);
        assertThat(ETags.STRONG.casOf(" \"1f\" ")).isEqualTo(31L);
        assertThat(ETags.STRONG.casOf("W/\"1f\"")).isNull();
        assertThat(ETags.STRONG.casOf("1f")).isNull();
        assertThat(ETags.STRONG.casOf("\"zz\"")).isNull();
        assertThat(ETags.STRONG.casOf("\"0\"")).as("CAS 0 is Memcached's 'no CAS': it names no stored item").isNull();
        assertThat(ETags.WEAK.casOf("W/\"00\"")).isNull();
        assertThat(ETags.STRONG.casOf("\"1\", \"2\"")).isNull();
        assertThat(ETags.STRONG.casOf("\"11111111111111111\"")).isNull();
        // Found by fuzzing: tags the service never issues, which Long.parseUnsignedLong reads as 0x1f all the same.
        assertThat(ETags.STRONG.casOf("\"1F\"")).isNull();
        assertThat(ETags.STRONG.casOf("\"01f\"")).isNull();
        assertThat(ETags.STRONG.casOf("\"+1f\"")).isNull();
        assertThat(ETags.WEAK.casOf("W/\"F1\"")).isNull();
        // With gzip on the tags are weak, and If-Match takes them as sent (or the same value strong).
        assertThat(ETags.WEAK.of(31)).isEqualTo("W/\"1f\"");
        assertThat(ETags.WEAK.casOf(ETags.WEAK.of(0xfedcba9876543210L))).isEqualTo(0xfedcba9876543210L);
        assertThat(ETags.WEAK.casOf("\"1f\"")).isEqualTo(31L);
        assertThat(ETags.WEAK.casOf("W/1f")).isNull();
        assertThat(ETags.WEAK.casOf("W/\"1\", \"2\"")).isNull();
        assertThat(ETags.forGzip(true)).isEqualTo(ETags.WEAK);
        assertThat(ETags.forGzip(false)).isEqualTo(ETags.STRONG);
        assertThat(ETags.isAny(" * ")).isTrue();
    }

    @Test
    void routesMatchTheRawPath() {
        assertThat(Routes.match("/testbed/items/a.b")).isEqualTo(new Routes.Route(Routes.Endpoint.ITEM, "a.b"));
        assertThat(Routes.match("/testbed/items/a%20b").id()).isEqualTo("a%20b");
        assertThat(Routes.match("/testbed/items/")).isNull();
        assertThat(Routes.match("/testbed/items/a/b")).isNull();
        assertThat(Routes.match("/testbed/json").endpoint()).isEqualTo(Routes.Endpoint.JSON);
        assertThat(Routes.match("/testbed/jsonx")).isNull();
        assertThat(Routes.match("/")).isNull();
        assertThat(Routes.Endpoint.ITEM.allows("DELETE")).isTrue();
        assertThat(Routes.Endpoint.HEALTH.allows("POST")).isFalse();
    }

    @Test
    void boundedBodiesStopAtTheLimit() throws IOException {
        byte[] ten = "0123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(BoundedBody.read(new ByteArrayInputStream(ten), 10, 10)).isEqualTo(ten);
        assertThat(BoundedBody.read(new ByteArrayInputStream(ten), -1, 10)).isEqualTo(ten);
        assertThat(BoundedBody.read(new ByteArrayInputStream(ten), -1, 9)).isNull();
        assertThat(BoundedBody.read(new ByteArrayInputStream(ten), 11, 10)).isNull();
    }

    @Test
    void aBodyThatStoppedArrivingIs408AndOtherReadFailures400() {
        // As Tomcat (a socket timeout under its ClientAbortException) and Jetty (a TimeoutException) report it.
        assertThat(BoundedBody.unreadable(new IOException(new java.net.SocketTimeoutException())).status()).isEqualTo(408);
        assertThat(BoundedBody.unreadable(new IOException(new java.util.concurrent.TimeoutException("Idle timeout expired")))
                .status()).isEqualTo(408);
        Response gone = BoundedBody.unreadable(new IOException("request body ended after 3 of 10 bytes"));
        assertThat(gone.status()).isEqualTo(400);
        assertThat(new String(gone.body(), StandardCharsets.UTF_8)).contains("ended after 3 of 10 bytes");
    }

    @Test
    void problemsAreRfc9457Json() {
        Response response = Response.problem(503, "say \"why\"");
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.retryAfter()).isEqualTo("1");
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo(
                "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,\"detail\":\"say \\\"why\\\"\"}");
    }

    @Test
    void delaysAreWholeMillisecondsUpToTenSeconds() {
        assertThat(Delay.parse("0").rejection()).isNull();
        assertThat(Delay.parse("10000").millis()).isEqualTo(10000);
        for (String bad : new String[] {null, "", "-1", "10001", "1.5", "+5", "abc", "99999999999999999999"}) {
            assertThat(Delay.parse(bad).rejection()).as(bad).isNotNull().extracting(Response::status).isEqualTo(400);
        }
    }
}
