package org.testbed.runner.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A JDK Flight Recorder recording of the server over one step ({@code run --jfr}), started and
 * stopped with the JDK's {@code jcmd JFR.start} and {@code JFR.stop}, wherever the server runs.
 */
public interface FlightRecording {

    /**
     * Stops the recording and brings its file to {@code local}.
     *
     * @return how far the server machine's clock is ahead of this one's, to place this machine's
     *         window on the recording's timeline (zero on this machine)
     */
    Duration stop(Path local) throws IOException;
}
