package org.testbed.runner.step;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.figure.Figure;

/**
 * What a run does with a window the machine ran slow in ({@code --slow-machine}): a window whose
 * server or load CPUs ran under {@code ratio} of their full speed ({@link Figure#SERVER_SPEED},
 * {@link Figure#LOAD_SPEED}) measured the host taking the CPUs as much as the server, so it is left
 * out of its step's figure, and measured again, at most {@value #MAX_RETAKES} times a window and only
 * while the run's budget ({@code --budget}) has room for one more window. Either way it is counted
 * (steps.csv's {@code slow_machine_samples} and {@code slow_machine_retakes}) and said, never
 * averaged in silently. A side whose speed is not known (no probe fell in the window, a server on
 * another machine) does not make a window slow.
 *
 * @param ratio the share of full speed under which a window is slow; 0 keeps every window
 * @param deadlineNanos when the run's budget ends ({@link System#nanoTime}), empty without one
 */
record SlowWindows(double ratio, OptionalLong deadlineNanos) {
    /** {@code --slow-machine}'s default: the share under which {@code ./testbed machine} calls a probe slow. */
    static final double DEFAULT_RATIO = 0.9;
    /** A slow window is measured again at most this many times. */
    static final int MAX_RETAKES = 2;
    /** Every window kept. */
    static final SlowWindows OFF = new SlowWindows(0, OptionalLong.empty());

    /** What becomes of a window. */
    enum Decision {
        /** in its step's figure */
        KEPT,
        /** left out, and measured again */
        RETAKE,
        /** left out, not measured again (its retakes used, or no room in the budget) */
        LEFT_OUT
    }

    /** Whether a window may be left out at all. */
    boolean active() {
        return ratio > 0;
    }

    /** Whether a window with these figures ran slow: either side's speed, where known, under {@link #ratio}. */
    boolean slow(Measured figures) {
        return active() && (under(figures.get(Figure.SERVER_SPEED)) || under(figures.get(Figure.LOAD_SPEED)));
    }

    private boolean under(double speed) {
        return Double.isFinite(speed) && speed < ratio;
    }

    /**
     * What becomes of a window with these figures, the {@code retakes} of its plan done before it, at
     * {@code nowNanos}, when one more window takes {@code window}.
     */
    Decision decide(Measured figures, int retakes, long nowNanos, Duration window) {
        if (!slow(figures)) {
            return Decision.KEPT;
        }
        boolean fits = deadlineNanos.isEmpty() || nowNanos + window.toNanos() <= deadlineNanos.getAsLong();
        return retakes < MAX_RETAKES && fits ? Decision.RETAKE : Decision.LEFT_OUT;
    }

    /** Why a window was left out, and what happens next: the console's line for it. */
    String describe(String window, Measured figures, Decision decision, int retakes) {
        String speeds = speeds(figures);
        String next = switch (decision) {
            case KEPT -> "kept";
            case RETAKE -> String.format(Locale.ROOT, "left out of the step's figure, measured again (%d of at most %d)",
                    retakes + 1, MAX_RETAKES);
            case LEFT_OUT -> "left out of the step's figure, not measured again ("
                    + (retakes >= MAX_RETAKES ? "measured " + MAX_RETAKES + " times already" : "no room left in --budget") + ")";
        };
        return String.format(Locale.ROOT, "   slow machine: %s ran at %s of full speed, under --slow-machine %s: %s", window,
                speeds, Figure.SERVER_SPEED.format(ratio).replaceAll("0+$", "").replaceAll("\\.$", ""), next);
    }

    /** {@code server CPUs 0.82, load CPUs 0.99}; a side not known is left out. */
    static String speeds(Measured figures) {
        List<String> parts = new ArrayList<>();
        if (figures.has(Figure.SERVER_SPEED)) {
            parts.add("server CPUs " + Figure.SERVER_SPEED.format(figures.get(Figure.SERVER_SPEED)));
        }
        if (figures.has(Figure.LOAD_SPEED)) {
            parts.add("load CPUs " + Figure.LOAD_SPEED.format(figures.get(Figure.LOAD_SPEED)));
        }
        return parts.isEmpty() ? "an unknown speed" : String.join(", ", parts);
    }
}
