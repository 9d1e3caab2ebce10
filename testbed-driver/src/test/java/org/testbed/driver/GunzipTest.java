package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class GunzipTest {
    private final Gunzip gunzip = new Gunzip();

    @Test
    void inflatesWhatTheJdkCompressesSmallLargeAndEmpty() throws IOException {
        byte[] large = new byte[100_000];
        new Random(1).nextBytes(large);
        for (byte[] body : new byte[][] {"Hello, World!".getBytes(StandardCharsets.UTF_8), large, new byte[0]}) {
            assertThat(gunzip.inflate(gzip(body))).isEqualTo(body);
        }
    }

    @Test
    void skipsAFileNameInTheHeader() throws IOException {
        byte[] plain = gzip("named".getBytes(StandardCharsets.UTF_8));
        byte[] named = new byte[plain.length + 4];
        System.arraycopy(plain, 0, named, 0, 10);
        named[3] = 8; // FNAME
        named[10] = 'a';
        named[11] = '.';
        named[12] = 'z';
        named[13] = 0;
        System.arraycopy(plain, 10, named, 14, plain.length - 10);
        assertThat(new String(gunzip.inflate(named), StandardCharsets.UTF_8)).isEqualTo("named");
    }

    @Test
    void refusesWhatIsNotGzipOrIsDamaged() throws IOException {
        assertThatThrownBy(() -> gunzip.inflate("Hello, World! not gzip".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("not gzip");
        byte[] damaged = gzip("Hello, World!".getBytes(StandardCharsets.UTF_8));
        damaged[damaged.length - 5] ^= 1; // the CRC-32
        assertThatThrownBy(() -> gunzip.inflate(damaged)).hasMessageContaining("CRC-32");
        byte[] good = gzip("Hello, World!".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> gunzip.inflate(Arrays.copyOf(good, good.length - 9))).isInstanceOf(IOException.class);
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }
}
