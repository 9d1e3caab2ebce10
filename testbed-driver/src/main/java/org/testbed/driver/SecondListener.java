package org.testbed.driver;

/**
 * Told the figures of each second of a step's window as soon as that second is over, for a live
 * view of a long window (a console line, as Gatling prints its periodic summary). Called once a
 * second on the thread that runs the step, never on a load thread: the event loops only hand each
 * second's histograms over, as they do for the interval log, so listening costs them nothing.
 */
@FunctionalInterface
public interface SecondListener {
    /** Nobody listens. */
    SecondListener NONE = second -> { };

    /** Second {@code figures.index()} of the window is over; the last, partial second is not told. */
    void second(SecondFigures figures);

    /**
     * One whole second of a window, counted as the step counts its figures: the figures of second
     * {@code i} are those of interval {@code i} of the step's {@link IntervalLog}.
     *
     * @param index which second of the window, from 0
     * @param requests responses that arrived in it ({@link LoadResult#perSecond()}'s count)
     * @param errors of those, the failed ones, and errors of no request (a failed connect) in it
     * @param latency the latencies of its responses, measured as the step's
     */
    record SecondFigures(int index, long requests, long errors, Latency latency) {
    }
}
