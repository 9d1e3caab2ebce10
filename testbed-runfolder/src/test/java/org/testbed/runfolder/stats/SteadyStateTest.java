package org.testbed.runfolder.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SteadyStateTest {

    /** 1000 req/s with a deterministic ±1.5 % wobble. */
    static double[] flat(int n) {
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            w[i] = 1000 * (1 + 0.015 * Math.sin(i * 2.1));
        }
        return w;
    }

    /** The first window after which the detector, called once per window, says settled; -1 if never. */
    static int settlesAfter(double[] windows) {
        for (int i = 1; i <= windows.length; i++) {
            if (SteadyState.settled(Arrays.copyOf(windows, i))) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void warmUpOfAFlatSeriesSettlesAfterSixWindows() {
        assertThat(settlesAfter(flat(20))).isEqualTo(6);
        assertThat(SteadyState.settled(flat(5))).isFalse();
    }

    @Test
    void warmUpOfARisingSeriesDoesNotSettleUntilItLevelsOff() {
        // JIT warming: 400 req/s rising by 60 per second to a plateau of 1000 from window 11 on.
        double[] w = new double[30];
        for (int i = 0; i < w.length; i++) {
            w[i] = Math.min(1000, 400 + 60 * i);
        }
        int settled = settlesAfter(w);
        assertThat(settled).isGreaterThan(11);
        assertThat(settled).isLessThanOrEqualTo(16);
        // A slow rise of 1.5 % a second keeps the last three within 3 % but is still rising.
        double[] slow = new double[20];
        for (int i = 0; i < slow.length; i++) {
            slow[i] = 1000 * Math.pow(1.015, i);
        }
        assertThat(settlesAfter(slow)).isEqualTo(-1);
    }

    @Test
    void warmUpWithOneOutlierWaitsUntilItIsOutOfTheLastSixWindows() {
        double[] w = flat(20);
        w[8] = 500;
        double[] head = Arrays.copyOf(w, 9);
        for (int i = 9; i <= 14; i++) {
            assertThat(SteadyState.settled(Arrays.copyOf(w, i))).as("after %d windows", i).isFalse();
        }
        assertThat(SteadyState.settled(Arrays.copyOf(w, 15))).isTrue();
        assertThat(SteadyState.settled(head)).isFalse();
    }

    @Test
    void warmUpWithoutThroughputNeverSettles() {
        assertThat(SteadyState.settled(new double[8])).isFalse();
        double[] nan = flat(8);
        nan[7] = Double.NaN;
        assertThat(SteadyState.settled(nan)).isFalse();
    }

    @Test
    void aTightToleranceWaitsWhileTheLastWindowsScatterWiderThanTheThreeBefore() {
        double[] w = {1000, 1001, 1000, 990, 1010, 1000};
        assertThat(SteadyState.settled(w, 0.001)).isFalse();
        assertThat(SteadyState.settled(w, 0.03)).isTrue();
    }

    @Test
    void wavesThatAliasWithTheWindowsSettle() {
        // 400 users each waiting 150 ms complete in waves: 6 or 7 waves of 400 a second.
        double[] waves = {900, 2000, 2400, 2800, 2400, 2800, 2400, 2800, 2400};
        assertThat(settlesAfter(waves)).isBetween(7, 9);
        assertThat(SteadyState.trend(new double[] {2400, 2800, 2400, 2800, 2800}).steady()).isTrue();
    }

    @Test
    void aStepStillClimbingAfterItsWarmUpIsNotSteady() {
        // Seen: spring-tomcat-virtual on one core, 5 s at 64 users after a 20 s warm-up.
        SteadyState.Trend t = SteadyState.trend(new double[] {8470, 10921, 13574, 14408, 13475});
        assertThat(t.steady()).isFalse();
        assertThat(t.change()).isGreaterThan(0.5);
        // Seen: a delay step whose windows scatter by a few per cent.
        assertThat(SteadyState.trend(new double[] {2400, 2469, 2693, 2664, 2632}).steady()).isTrue();
    }

    @Test
    void aFlatStepIsSteady() {
        SteadyState.Trend t = SteadyState.trend(flat(30));
        assertThat(t.steady()).isTrue();
        assertThat(Math.abs(t.change())).isLessThan(0.02);
        assertThat(t.threshold()).isEqualTo(SteadyState.MIN_TREND);
    }

    @Test
    void aRisingOrFallingStepIsNotSteady() {
        double[] up = new double[30];
        double[] down = new double[30];
        for (int i = 0; i < 30; i++) {
            up[i] = 1000 + 10 * i;
            down[i] = 1300 - 10 * i;
        }
        SteadyState.Trend t = SteadyState.trend(up);
        assertThat(t.steady()).isFalse();
        assertThat(t.firstMedian()).isCloseTo(1045, within(1e-9));
        assertThat(t.lastMedian()).isCloseTo(1245, within(1e-9));
        assertThat(t.change()).isCloseTo(200 / 1045.0, within(1e-9));
        assertThat(SteadyState.trend(down).steady()).isFalse();
        assertThat(SteadyState.trend(down).change()).isNegative();
    }

    @Test
    void oneOutlierWindowDoesNotFlagAStep() {
        double[] w = flat(30);
        w[27] = 200;
        assertThat(SteadyState.trend(w).steady()).isTrue();
        w[2] = 3000;
        assertThat(SteadyState.trend(w).steady()).isTrue();
    }

    @Test
    void aNoisyStepNeedsALargerTrendToBeFlagged() {
        // ±15-20 % scatter window to window, and 8 % higher at the end: within its own noise.
        double[] scatter = {1.15, 0.85, 1.0, 1.2, 0.8};
        double[] quiet = new double[15];
        double[] noisy = new double[15];
        for (int i = 0; i < noisy.length; i++) {
            quiet[i] = i < 5 ? 1000 : i >= 10 ? 1080 : 1040;
            noisy[i] = quiet[i] * scatter[i % 5];
        }
        SteadyState.Trend t = SteadyState.trend(noisy);
        assertThat(t.threshold()).isGreaterThan(0.08);
        assertThat(t.steady()).isTrue();
        // The same trend without the scatter is flagged.
        assertThat(SteadyState.trend(quiet).steady()).isFalse();
    }

    @Test
    void tooFewWindowsCountAsSteady() {
        assertThat(SteadyState.trend(new double[] {1000, 2000}).steady()).isTrue();
        assertThat(SteadyState.trend(new double[0]).steady()).isTrue();
        assertThat(SteadyState.trend(new double[] {0, 0, 0}).steady()).isTrue();
        assertThat(SteadyState.trend(new double[] {0, 0, 500}).steady()).isFalse();
    }
}
