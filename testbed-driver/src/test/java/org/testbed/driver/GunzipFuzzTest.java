package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzz tests (Jazzer) of the driver's gzip decoder ({@link Gunzip}), which inflates
 * every compressed answer of a {@code --gzip} run. JUnit replays the inputs under
 * {@code src/test/resources/org/testbed/driver/GunzipFuzzTestInputs/<method>/}; {@code ./testbed fuzz}
 * fuzzes each method.
 *
 * <p>The contract held, for any bytes: {@link Gunzip#inflate} returns the inflated bytes or throws an
 * {@link IOException} saying what is wrong, which the driver counts as a wrong answer; anything else
 * (an index out of bounds from a header field, an error of the native inflater) fails the test. One
 * decoder is reused for every input, as the event loop does, and still inflates a good body after a
 * bad one. What {@code GZIPOutputStream} writes inflates back to its input. Inputs are at most
 * libFuzzer's length limit (4 KiB by default, so at most about 4 MiB inflated); one that takes longer
 * than the class's timeout is a hang.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GunzipFuzzTest {
    private static final Gunzip GUNZIP = new Gunzip();
    private static final byte[] GOOD = "{\"id\":\"k1\",\"name\":\"n\",\"payload\":\"p\"}".getBytes(StandardCharsets.UTF_8);

    @FuzzTest
    void inflateAnyBytes(byte[] body) throws IOException {
        try {
            GUNZIP.inflate(body);
        } catch (IOException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
        assertThat(GUNZIP.inflate(gzip(GOOD))).isEqualTo(GOOD);
    }

    @FuzzTest
    void gzipRoundTrip(byte[] data) throws IOException {
        assertThat(GUNZIP.inflate(gzip(data))).isEqualTo(data);
    }

    static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
