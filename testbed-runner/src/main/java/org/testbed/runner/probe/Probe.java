package org.testbed.runner.probe;

import java.util.Set;
import org.testbed.driver.LoadResult;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.figure.Figure;

/**
 * One observation of a measured window, with the life cycle JMH gives its profilers: told before
 * the window opens and after it closes, then asked for its figures. It declares the figures it
 * yields ({@link Figure.Source#PROBE}); everything after that (the samples.csv and steps.csv columns,
 * compare's verdict, {@code --assert}, the report) follows from their declaration, so a new figure
 * is its declaration and its probe.
 */
public interface Probe {
    /** The figures it yields, each declared in {@link Figure} with {@link Figure.Source#PROBE}. */
    Set<Figure> figures();

    /** Just before the window opens (after the warm-up). */
    default void beforeWindow() {
    }

    /** Just after the window closes, with what the driver measured in it. */
    default void afterWindow(LoadResult result) {
    }

    /** Its figures of the window just measured; a figure it could not read is left out. */
    Measured summarise();
}
