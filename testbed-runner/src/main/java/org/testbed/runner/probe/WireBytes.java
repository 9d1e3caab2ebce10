package org.testbed.runner.probe;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.testbed.driver.LoadResult;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.figure.Figure;

/**
 * The bytes of HTTP a request and its response took on the wire, per response, as the load driver
 * counted them ({@link LoadResult.TransportCounts}): what gzip saves, beside the CPU it costs. A
 * driver that does not count bytes (wrk, JMeter, Gatling) yields nothing.
 *
 * <p>The server process's own I/O counters ({@code /proc/PID/io}) are not used: they add its
 * Memcached traffic and its log to what it sent its clients.
 */
public final class WireBytes implements Probe {
    private Measured measured = Measured.NONE;

    @Override
    public String observes() {
        return "bytes on the wire";
    }

    @Override
    public Set<Figure> figures() {
        return EnumSet.of(Figure.BYTES_IN, Figure.BYTES_OUT);
    }

    @Override
    public void afterStep(Window window) {
        LoadResult.TransportCounts t = window.result().transport();
        measured = new Measured(Map.of(Figure.BYTES_IN, t.requestBytesPerResponse(), Figure.BYTES_OUT, t.responseBytesPerResponse()));
    }

    @Override
    public ProbeResult result() {
        return ProbeResult.NONE.withFigures(measured);
    }
}
