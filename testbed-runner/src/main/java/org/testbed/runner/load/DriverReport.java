package org.testbed.runner.load;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The driver's raw text for a step: summary lines, failure reasons, the HdrHistogram distribution. */
final class DriverReport {
    private final Level level;
    private final int loops;
    private final double seconds;
    private final Measurements total;
    private final double cpuMs;
    private final int peakConnections;
    private final long inFlightAtEnd;
    private final long queuedAtEnd;

    DriverReport(Level level, int loops, double seconds, Measurements total, double cpuMs, int peakConnections,
                 long inFlightAtEnd, long queuedAtEnd) {
        this.level = level;
        this.loops = loops;
        this.seconds = seconds;
        this.total = total;
        this.cpuMs = cpuMs;
        this.peakConnections = peakConnections;
        this.inFlightAtEnd = inFlightAtEnd;
        this.queuedAtEnd = queuedAtEnd;
    }

    String text() {
        Latency latency = Latency.ofMicros(total.latency);
        StringBuilder raw = new StringBuilder();
        raw.append(String.format(Locale.ROOT, "driver %s, %s, %d event loop(s), window %.3f s%n", NioHttpDriver.NAME,
                level.isOpen() ? "open model at " + level.label() + " (latency from intended start)"
                        : "closed model with " + level.concurrency() + " connections",
                loops, seconds));
        raw.append(String.format(Locale.ROOT, "requests=%d errors=%d rps=%.1f driver_cpu_ms=%.0f peak_connections=%d"
                        + " in_flight_at_end=%d queued_at_end=%d%n",
                total.requests, total.errors, total.requests / seconds, cpuMs, peakConnections, inFlightAtEnd, queuedAtEnd));
        raw.append(String.format(Locale.ROOT, "latency ms: p50=%.3f p90=%.3f p99=%.3f p99.9=%.3f max=%.3f%n",
                latency.p50(), latency.p90(), latency.p99(), latency.p999(), latency.max()));
        total.failures.forEach((reason, count) -> raw.append("failure x").append(count).append(": ").append(reason).append('\n'));
        raw.append("\nHdrHistogram percentile distribution (values in microseconds):\n");
        ByteArrayOutputStream hgrm = new ByteArrayOutputStream();
        total.latency.outputPercentileDistribution(new PrintStream(hgrm, true, StandardCharsets.UTF_8), 5, 1.0);
        raw.append(hgrm.toString(StandardCharsets.UTF_8));
        return raw.toString();
    }
}
