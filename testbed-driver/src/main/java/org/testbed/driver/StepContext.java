package org.testbed.driver;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.testbed.scenario.LanePool;
import org.testbed.scenario.Operations;
import org.testbed.scenario.RequestStream;
import org.testbed.scenario.Workload;

/** What the event loops of one step share. */
final class StepContext {
    final Target target;
    /** Open model: the lanes arriving users borrow. */
    final LanePool lanes;
    /** The last ETag each lane saw, for its next If-Match. */
    final Map<RequestStream, String> etags = new ConcurrentHashMap<>();
    final long timeoutNanos;
    final int maxConnections;
    /** The header lines every request carries: {@code Host}, and {@code Accept-Encoding: gzip} when asked. */
    final byte[] fixedHeaders;
    /** Whether requests ask for gzip, and gzip responses are inflated before they are checked. */
    final boolean gzip;
    /** What the figures are broken down by: each request's operation is found once, when it is sent. */
    final Operations operations;

    StepContext(Target target, Workload workload, long timeoutNanos, int maxConnections, boolean gzip) {
        this.target = target;
        this.lanes = new LanePool(workload);
        this.timeoutNanos = timeoutNanos;
        this.maxConnections = maxConnections;
        this.gzip = gzip;
        this.operations = Operations.of(workload);
        this.fixedHeaders = ("Host: " + target.authority() + "\r\n" + (gzip ? "Accept-Encoding: gzip\r\n" : ""))
                .getBytes(StandardCharsets.ISO_8859_1);
    }
}
