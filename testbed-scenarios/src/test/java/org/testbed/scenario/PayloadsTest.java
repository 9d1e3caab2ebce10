package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;
import org.junit.jupiter.api.Test;

class PayloadsTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 100, 1024, 10 * 1024, Payloads.MAX_SIZE})
    void payloadsHaveExactlyTheRequestedBytes(int size) {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20; i++) {
            String payload = Payloads.payload(size, random);
            assertThat(payload.getBytes(StandardCharsets.UTF_8)).hasSize(size);
            byte[] body = Payloads.body("n", payload);
            Item decoded = ItemCodec.decode("x", body); // the server's own strict decoder accepts it
            assertThat(decoded.payload()).isEqualTo(payload);
            assertThat(body).hasSize(size + "{\"name\":\"n\",\"payload\":\"\"}".length());
        }
    }

    @Test
    void sameSeedSamePayloads() {
        assertThat(Payloads.payload(1024, new SplittableRandom(3))).isEqualTo(Payloads.payload(1024, new SplittableRandom(3)));
        assertThat(Payloads.payload(1024, new SplittableRandom(3))).isNotEqualTo(Payloads.payload(1024, new SplittableRandom(4)));
    }

    @ParameterizedTest
    @CsvSource({"100,100", "1KiB,1024", "1k,1024", "10KiB,10240", "10k,10240", "512b,512", " 2 KiB ,2048"})
    void parsesSizes(String text, int bytes) {
        assertThat(Payloads.parseSize(text)).isEqualTo(bytes);
    }

    @Test
    void rejectsBadSizes() {
        assertThatThrownBy(() -> Payloads.parseSize("lots"))
                .hasMessage("payloadSize 'lots' must be a size from 0 to 61440 bytes (60KiB): 100, 1KiB, 10KiB, ...");
        assertThatThrownBy(() -> Payloads.parseSize("100KiB")).hasMessageStartingWith("payloadSize '100KiB' must be a size from 0 to 61440");
        assertThatThrownBy(() -> Payloads.parseSize("-1")).hasMessageStartingWith("payloadSize '-1' must be a size from 0");
        assertThatThrownBy(() -> Payloads.parseSize("3000000k")).isInstanceOf(InvalidParameterException.class);
        assertThatThrownBy(() -> Payloads.body("a\"b", "")).isInstanceOf(IllegalArgumentException.class);
    }
}
