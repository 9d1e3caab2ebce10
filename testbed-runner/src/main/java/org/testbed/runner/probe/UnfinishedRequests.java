package org.testbed.runner.probe;

import java.util.EnumSet;
import java.util.Set;
import org.testbed.driver.LoadResult;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.figure.Figure;

/**
 * The requests the load driver cut when the window ended ({@link LoadResult#unfinished()}): sent,
 * not yet answered, so neither requests nor errors of the window. Kept apart from the errors, so that
 * the errors are the server's: a request still in flight at the end of a window is the driver's cut
 * (JMeter interrupts it and would call it a failed sample), not a failure of the server.
 */
public final class UnfinishedRequests implements Probe {
    private Measured measured = Measured.NONE;

    @Override
    public String observes() {
        return "requests cut at the window's end";
    }

    @Override
    public Set<Figure> figures() {
        return EnumSet.of(Figure.UNFINISHED);
    }

    @Override
    public void afterStep(Window window) {
        measured = Measured.of(Figure.UNFINISHED, window.result().unfinished());
    }

    @Override
    public ProbeResult result() {
        return ProbeResult.NONE.withFigures(measured);
    }
}
