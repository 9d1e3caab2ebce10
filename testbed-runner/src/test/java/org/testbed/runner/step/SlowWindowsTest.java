package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.figure.Figure;

class SlowWindowsTest {
    private static final Duration WINDOW = Duration.ofSeconds(3);
    private final SlowWindows rule = new SlowWindows(0.9, OptionalLong.empty());

    private static Measured speeds(double server, double load) {
        return new Measured(Map.of(Figure.SERVER_SPEED, server, Figure.LOAD_SPEED, load));
    }

    @Test
    void aWindowAtFullSpeedOnBothSidesIsKept() {
        assertThat(rule.decide(speeds(1.0, 0.97), 0, 0, WINDOW)).isEqualTo(SlowWindows.Decision.KEPT);
        assertThat(rule.decide(speeds(0.9, 0.9), 0, 0, WINDOW)).as("at the ratio is not under it").isEqualTo(SlowWindows.Decision.KEPT);
    }

    @Test
    void aWindowSlowOnEitherSideIsMeasuredAgainTwiceThenLeftOut() {
        assertThat(rule.decide(speeds(0.82, 1.0), 0, 0, WINDOW)).isEqualTo(SlowWindows.Decision.RETAKE);
        assertThat(rule.decide(speeds(1.0, 0.6), 1, 0, WINDOW)).isEqualTo(SlowWindows.Decision.RETAKE);
        assertThat(rule.decide(speeds(0.7, 0.7), 2, 0, WINDOW)).isEqualTo(SlowWindows.Decision.LEFT_OUT);
    }

    @Test
    void aSlowWindowIsLeftOutWithoutARetakeWhenTheBudgetHasNoRoomForOne() {
        SlowWindows budgeted = new SlowWindows(0.9, OptionalLong.of(10_000_000_000L));
        assertThat(budgeted.decide(speeds(0.8, 1.0), 0, 6_000_000_000L, WINDOW)).isEqualTo(SlowWindows.Decision.RETAKE);
        assertThat(budgeted.decide(speeds(0.8, 1.0), 0, 8_000_000_000L, WINDOW)).isEqualTo(SlowWindows.Decision.LEFT_OUT);
    }

    @Test
    void aSideNotReadDoesNotMakeAWindowSlow() {
        Measured loadOnly = Measured.of(Figure.LOAD_SPEED, 0.99);
        assertThat(rule.slow(loadOnly)).isFalse();
        assertThat(rule.slow(Measured.NONE)).isFalse();
        assertThat(rule.slow(Measured.of(Figure.LOAD_SPEED, 0.5))).isTrue();
    }

    @Test
    void ratioZeroKeepsEveryWindow() {
        SlowWindows off = new SlowWindows(0, OptionalLong.empty());
        assertThat(off.active()).isFalse();
        assertThat(off.decide(speeds(0.3, 0.3), 0, 0, WINDOW)).isEqualTo(SlowWindows.Decision.KEPT);
        assertThat(SlowWindows.OFF.slow(speeds(0.1, 0.1))).isFalse();
    }

    @Test
    void theConsoleLineNamesTheWindowItsSpeedsAndWhatBecameOfIt() {
        Measured slow = speeds(0.82, 0.99);
        assertThat(rule.describe("vertx mix c64 iteration 2", slow, SlowWindows.Decision.RETAKE, 0))
                .isEqualTo("   slow machine: vertx mix c64 iteration 2 ran at server CPUs 0.820, load CPUs 0.990 of full speed,"
                        + " under --slow-machine 0.9: left out of the step's figure, measured again (1 of at most 2)");
        assertThat(rule.describe("w", slow, SlowWindows.Decision.LEFT_OUT, 2)).endsWith("not measured again (measured 2 times already)");
        assertThat(rule.describe("w", slow, SlowWindows.Decision.LEFT_OUT, 0)).endsWith("not measured again (no room left in --budget)");
    }
}
