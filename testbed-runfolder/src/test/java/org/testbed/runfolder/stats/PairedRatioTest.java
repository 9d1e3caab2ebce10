package org.testbed.runfolder.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairedRatioTest {
    /** The machine's speed in each of six rounds: it drifts by a third, every variant's windows alike. */
    private static final double[] DRIFT = {1.0, 0.72, 0.95, 0.81, 0.99, 0.68};

    @Test
    void driftSharedByARoundsWindowsCancelsInTheirRatio() {
        List<PairedRatio.Window> a = new ArrayList<>();
        List<PairedRatio.Window> b = new ArrayList<>();
        for (int round = 0; round < DRIFT.length; round++) {
            // B is 10 % slower; each window also has 1 % of noise of its own.
            a.add(new PairedRatio.Window(1, round + 1, 20_000 * DRIFT[round] * (round % 2 == 0 ? 1.01 : 0.99)));
            b.add(new PairedRatio.Window(1, round + 1, 18_000 * DRIFT[round] * (round % 3 == 0 ? 0.99 : 1.01)));
        }
        RatioInterval paired = PairedRatio.of(a, b).orElseThrow();
        assertEquals(0.9, paired.ratio(), 0.01);
        assertTrue(paired.ciHigh() < 1, "the paired interval tells the 10 % apart: " + paired);
        assertTrue(paired.ciHigh() / paired.ciLow() < 1.05, "and is narrow: " + paired);

        // The same windows taken as independent samples: the drift is all in the interval.
        RatioInterval unpaired = RatioInterval.of(values(a), values(b));
        assertFalse(unpaired.excludesOne(), "unpaired, the drift hides the change: " + unpaired);
    }

    @Test
    void onlyWindowsOfTheSameForkAndRoundArePaired() {
        List<PairedRatio.Window> a = List.of(new PairedRatio.Window(1, 1, 100), new PairedRatio.Window(1, 2, 100),
                new PairedRatio.Window(2, 1, 100));
        List<PairedRatio.Window> b = List.of(new PairedRatio.Window(1, 1, 50), new PairedRatio.Window(1, 3, 999),
                new PairedRatio.Window(2, 1, 50), new PairedRatio.Window(2, 2, Double.NaN));
        RatioInterval r = PairedRatio.of(a, b).orElseThrow();
        assertEquals(2, r.nA(), "pairs (1,1) and (2,1); (1,3) has no partner, (2,2) no usable figure");
        assertEquals(0.5, r.ratio(), 1e-9);
    }

    @Test
    void thePairedNoiseFloorIsTheRatiosOwnScatterNotTheDriftOfEachSide() {
        List<PairedRatio.Window> a = new ArrayList<>();
        List<PairedRatio.Window> b = new ArrayList<>();
        for (int round = 0; round < DRIFT.length; round++) {
            a.add(new PairedRatio.Window(1, round + 1, 20_000 * DRIFT[round]));
            b.add(new PairedRatio.Window(1, round + 1, 18_000 * DRIFT[round] * (round % 2 == 0 ? 1.02 : 0.98)));
        }
        double unpairedFloor = Verdict.noiseFloor(values(a), values(b), Verdict.MIN_EFFECT);
        assertTrue(unpairedFloor > 0.5, "each side's drift added up: " + unpairedFloor);
        assertEquals(Verdict.MIN_EFFECT, PairedRatio.noiseFloor(a, b, Verdict.MIN_EFFECT), 1e-9,
                "the ratios scatter by 4 %: half of that is under the smallest change ever called");
        assertEquals(Verdict.SLOWER, Verdict.decide(PairedRatio.of(a, b).orElseThrow(),
                PairedRatio.noiseFloor(a, b, Verdict.MIN_EFFECT), true), "so the 10 % is called");
    }

    @Test
    void onePairIsNoRatio() {
        assertTrue(PairedRatio.of(List.of(new PairedRatio.Window(1, 1, 100)), List.of(new PairedRatio.Window(1, 1, 90)))
                .isEmpty());
    }

    private static double[] values(List<PairedRatio.Window> windows) {
        return windows.stream().mapToDouble(PairedRatio.Window::value).toArray();
    }
}
