package org.testbed.runner.probe;

import java.io.IOException;
import java.util.Set;
import org.testbed.runfolder.figure.Figure;

/**
 * One observation of a step besides its own figures, with a life cycle like the one JMH gives its
 * profilers, told of the step's moments in turn: before the server is read at the step's start,
 * just before the measured window opens, just after it closes, and after the server is read at the
 * step's end; then asked for what it made of the step ({@link ProbeResult}). The probes of a step
 * are started in order and stopped in the reverse order ({@link Probes}), each nested in the ones
 * before it, so that what one costs the server stays out of the other's readings.
 *
 * <p>A hook that fails with an {@link IOException} is a problem of the step, not its end: the step
 * is measured without that probe. Figures a probe yields are declared in {@link Figure} with
 * {@link Figure.Source#PROBE}; everything after that (the samples.csv and steps.csv columns,
 * compare's verdict, {@code --assert}, the report) follows from their declaration, so a new figure
 * is its declaration and its probe.
 */
public interface Probe {

    /** What it observes, as a problem with it is worded: {@code vertx mix-c64 flame graph: ...}. */
    String observes();

    /** The figures it yields, each declared in {@link Figure} with {@link Figure.Source#PROBE}; none by default. */
    default Set<Figure> figures() {
        return Set.of();
    }

    /** Before the server's readings at the step's start: what starting costs the server stays out of the step's CPU. */
    default void beforeStep() throws IOException, InterruptedException {
    }

    /** Just before the window opens, after the server was read. */
    default void beforeWindow() throws IOException, InterruptedException {
    }

    /** Just after the window closes, whether the load completed or failed: what it sampled through the window stops. */
    default void afterWindow() throws IOException, InterruptedException {
    }

    /** After the server's readings at the step's end, with the window as the driver measured it. */
    default void afterStep(Window window) throws IOException, InterruptedException {
    }

    /** What it made of the step; {@link ProbeResult#NONE} when it has nothing (it was never started). */
    ProbeResult result();
}
