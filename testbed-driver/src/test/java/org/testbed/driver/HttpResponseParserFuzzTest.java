package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzz test (Jazzer) of the NIO driver's HTTP response parser: the bytes a server
 * (or anything listening on the port) sends, arriving in any chunking. JUnit replays the inputs under
 * {@code src/test/resources/org/testbed/driver/HttpResponseParserFuzzTestInputs/<method>/} (raw
 * response bytes); {@code ./testbed fuzz} fuzzes it.
 *
 * <p>The contract held, for any bytes: {@link HttpResponseParser#complete} returns false (more is
 * needed) or true (a whole response is in: a status of 100 to 599, its body, its length at most
 * the bytes given), or throws an {@link IllegalStateException} saying the response is malformed, which
 * the event loop counts as that connection's error. Any other exception (a NumberFormatException from
 * a length, an index out of bounds from a negative or huge one) fails the test. And the outcome does
 * not depend on how the bytes arrive: all at once, byte by byte (inputs up to 512 bytes) and in
 * pieces of a size drawn from the input give the same responses (several when the bytes hold more
 * than one, each read after {@link HttpResponseParser#reset}, as the driver does) and the same end:
 * incomplete or malformed. Inputs are at most libFuzzer's length limit (4 KiB by default); one that
 * takes longer than the class's timeout is a hang.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpResponseParserFuzzTest {

    /** One parsed response, as the driver uses it. */
    record Parsed(int status, List<Byte> body, int messageLength, boolean close, String etag) {
    }

    /** Everything the bytes held: the responses in order, then whether the rest was malformed. */
    record Outcome(List<Parsed> responses, boolean malformed) {
    }

    @FuzzTest
    void responseInAnyChunking(byte[] input) {
        Outcome whole = parse(input, new int[] {Math.max(1, input.length)});
        SplittableRandom random = new SplittableRandom(Arrays.hashCode(input));
        int[] pieces = new int[1 + random.nextInt(16)];
        for (int i = 0; i < pieces.length; i++) {
            pieces[i] = 1 + random.nextInt(1 + input.length / 2);
        }
        assertThat(parse(input, pieces)).as("in pieces of %s", Arrays.toString(pieces)).isEqualTo(whole);
        if (input.length <= 512) {
            assertThat(parse(input, new int[] {1})).as("byte by byte").isEqualTo(whole);
        }
    }

    /** Feeds {@code input} in pieces of the sizes {@code pieces} gives in turn, reading every response. */
    private static Outcome parse(byte[] input, int[] pieces) {
        HttpResponseParser parser = new HttpResponseParser();
        List<Parsed> responses = new ArrayList<>();
        int at = 0;
        int piece = 0;
        try {
            while (at < input.length) {
                int n = Math.min(pieces[piece++ % pieces.length], input.length - at);
                parser.append(Arrays.copyOfRange(input, at, at + n));
                at += n;
                while (parser.complete()) {
                    int length = parser.messageLength();
                    byte[] body = parser.body();
                    assertThat(body).isNotNull();
                    assertThat(length).isPositive().isLessThanOrEqualTo(input.length);
                    assertThat(parser.status()).isBetween(100, 599);
                    List<Byte> bytes = new ArrayList<>(body.length);
                    for (byte b : body) {
                        bytes.add(b);
                    }
                    responses.add(new Parsed(parser.status(), bytes, length, parser.connectionClose(), parser.header("ETag")));
                    assertThat(responses.size()).isLessThanOrEqualTo(input.length);
                    parser.reset();
                }
            }
            return new Outcome(responses, false);
        } catch (IllegalStateException malformed) {
            assertThat(malformed.getMessage()).isNotBlank();
            return new Outcome(responses, true);
        }
    }
}
