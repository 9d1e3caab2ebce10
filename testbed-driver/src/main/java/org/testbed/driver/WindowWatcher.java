package org.testbed.driver;

/**
 * Decides, once per completed second of a step's window, whether the load may stop before its
 * maximum duration: for a warm-up, say, as soon as throughput has become steady. Called on the
 * thread that runs the step, never on a load thread.
 */
@FunctionalInterface
public interface WindowWatcher {
    /** Applies the load for the whole duration. */
    WindowWatcher NEVER = completedPerSecondSoFar -> false;

    /**
     * @param completedPerSecondSoFar requests completed in each whole second of the window so far
     *     (index 0: the first second); a fresh copy, one longer at each call
     * @return true to stop the load now
     */
    boolean stop(long[] completedPerSecondSoFar);
}
