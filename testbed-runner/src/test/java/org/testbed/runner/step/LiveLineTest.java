package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.testbed.driver.Latency;
import org.testbed.driver.SecondListener;
import org.testbed.driver.SecondListener.SecondFigures;

class LiveLineTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private static SecondFigures second(int index, long requests, double p99, long errors) {
        return new SecondFigures(index, requests, errors, new Latency(p99 / 2, p99 / 1.5, p99, p99 * 2, p99 * 3));
    }

    private String written() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void onATerminalEachSecondRewritesOneLineWhichIsClearedBeforeTheNextLine() {
        LiveLine live = new LiveLine(out, true);
        SecondListener listener = live.during("vertx mix c=64", Duration.ofSeconds(30));
        listener.second(second(0, 123456, 3.21, 2));
        listener.second(second(1, 9, 1.5, 0));
        live.clear();
        out.println("[  1/4] the sample's line");

        String first = "   vertx mix c=64  1/30 s  123456 req/s  p99 3.210 ms  errors 2";
        String second = "   vertx mix c=64  2/30 s  9 req/s  p99 1.500 ms";
        // The second line is shorter: what is left of the first is blanked; then the line is, before the next.
        assertThat(written()).isEqualTo("\r" + first
                + "\r" + second + " ".repeat(first.length() - second.length())
                + "\r" + " ".repeat(second.length()) + "\r"
                + "[  1/4] the sample's line" + System.lineSeparator());
        assertThat(written()).doesNotContain("\n\r").doesNotContain("\u001b");
    }

    @Test
    void aLineWiderThanATerminalIsCutSoThatItStaysOnOneRow() {
        LiveLine live = new LiveLine(out, true);
        live.during("servlet-tomcat-virtual journey c=1100 tls+gzip+metrics", Duration.ofMinutes(5))
                .second(second(0, 123456, 3.21, 1000));
        assertThat(written()).startsWith("\r").hasSize(1 + LiveLine.WIDTH);
    }

    @Test
    void offATerminalNothingIsPrintedPerSecondNorCleared() {
        LiveLine live = new LiveLine(out, false);
        SecondListener listener = live.during("vertx mix c=64", Duration.ofSeconds(30));
        assertThat(listener).isSameAs(SecondListener.NONE);
        listener.second(second(0, 23456, 3.21, 0));
        live.clear();
        out.println("[  1/4] the sample's line");
        assertThat(written()).isEqualTo("[  1/4] the sample's line" + System.lineSeparator());
    }

    @Test
    void aShortWindowHasNoLiveLineAndClearingWithoutOneWritesNothing() {
        LiveLine live = new LiveLine(out, true);
        assertThat(live.during("vertx mix c=64", Duration.ofSeconds(2))).isSameAs(SecondListener.NONE);
        live.clear();
        assertThat(written()).isEmpty();
    }
}
