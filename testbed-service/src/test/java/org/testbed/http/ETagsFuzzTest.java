package org.testbed.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzz tests (Jazzer) of the request headers the service parses itself: {@code If-Match}
 * ({@link ETags#casOf}, {@link ETags#isAny}) and {@code Content-Type} ({@link MediaTypes#isJson}). JUnit
 * replays the inputs under {@code src/test/resources/org/testbed/http/ETagsFuzzTestInputs/<method>/};
 * {@code ./testbed fuzz} fuzzes each method. The header value is the input's bytes read as ISO-8859-1,
 * as servers hand header values over.
 *
 * <p>The contracts held, for any value: none of these methods throws. {@code casOf} returns null (a
 * precondition that can never hold: 412) or the CAS of exactly the tag the service issues for it,
 * {@code "hex"} in lower case without leading zeros ({@code W/"hex"} too when the tags are weak);
 * any other spelling of a number ({@code "01"}, {@code "+1"}, {@code "1F"}) names no tag of this
 * service, since {@code If-Match} compares tags strongly, character by character (RFC 9110, 13.1.1).
 * Every tag {@code of} issues reads back as its CAS. An input is at most libFuzzer's length limit
 * (4 KiB by default); one that takes longer than the class's timeout is a hang.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ETagsFuzzTest {

    @FuzzTest
    void ifMatch(byte[] raw) {
        String value = new String(raw, StandardCharsets.ISO_8859_1);
        ETags.isAny(value);
        for (ETags tags : ETags.values()) {
            Long cas = tags.casOf(value);
            if (cas == null) {
                continue;
            }
            assertThat(cas).isNotZero();
            String trimmed = value.trim();
            assertThat(trimmed).as("%s: '%s' read as CAS %d", tags, value, cas)
                    .isIn(tags.of(cas), ETags.STRONG.of(cas));
            assertThat(tags.casOf(tags.of(cas))).isEqualTo(cas);
        }
    }

    /** Every CAS but 0 (Memcached's "none") round-trips through its tag, strong and weak. */
    @FuzzTest
    void etagRoundTrip(byte[] raw) {
        long cas = 0;
        for (int i = 0; i < Math.min(8, raw.length); i++) {
            cas = cas << 8 | (raw[i] & 0xff);
        }
        for (ETags tags : ETags.values()) {
            assertThat(tags.casOf(tags.of(cas))).isEqualTo(cas == 0 ? null : cas);
            assertThat(tags.casOf(" " + tags.of(cas) + "\t")).isEqualTo(cas == 0 ? null : cas);
        }
    }

    @FuzzTest
    void contentType(byte[] raw) {
        String value = new String(raw, StandardCharsets.ISO_8859_1);
        if (MediaTypes.isJson(value)) {
            int semicolon = value.indexOf(';');
            assertThat((semicolon < 0 ? value : value.substring(0, semicolon)).trim()).isEqualToIgnoringCase(MediaTypes.JSON);
        }
    }
}
