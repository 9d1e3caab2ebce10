package org.testbed.driver;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.testbed.driver.LoadResult.OperationFigures;

/**
 * The driver's raw text for a step: summary lines, each operation's figures when there are several,
 * requests per second of the window, failure reasons, and the HdrHistogram distributions (for open
 * models also the latency from the actual send and the schedule lag).
 */
final class DriverReport {
    private final Level level;
    private final int loops;
    private final double seconds;
    private final double maxSeconds;
    private final Measurements total;
    private final long[] perSecond;
    private final double cpuMs;
    private final int peakConnections;
    private final long inFlightAtEnd;
    private final long queuedAtEnd;
    private final List<OperationFigures> operations;

    /** {@code seconds}: the window as run; {@code maxSeconds}: as asked (longer when stopped early). */
    DriverReport(Level level, int loops, double seconds, double maxSeconds, Measurements total, long[] perSecond,
                 double cpuMs, int peakConnections, long inFlightAtEnd, long queuedAtEnd,
                 List<OperationFigures> operations) {
        this.level = level;
        this.loops = loops;
        this.seconds = seconds;
        this.maxSeconds = maxSeconds;
        this.total = total;
        this.perSecond = perSecond;
        this.cpuMs = cpuMs;
        this.peakConnections = peakConnections;
        this.inFlightAtEnd = inFlightAtEnd;
        this.queuedAtEnd = queuedAtEnd;
        this.operations = operations;
    }

    String text() {
        StringBuilder raw = new StringBuilder();
        raw.append(String.format(Locale.ROOT, "driver %s, %s, %d event loop(s), window %.3f s%s%n", NioHttpDriver.NAME,
                level.isOpen() ? "open model at " + level.label() + " (latency from intended start)"
                        : "closed model with " + level.concurrency() + " connections",
                loops, seconds,
                seconds < maxSeconds ? String.format(Locale.ROOT, " (stopped early, at most %.3f s)", maxSeconds) : ""));
        raw.append(String.format(Locale.ROOT, "requests=%d errors=%d rps=%.1f driver_cpu_ms=%.0f peak_connections=%d"
                        + " unfinished=%d queued_at_end=%d%n",
                total.requests, total.errors, total.requests / seconds, cpuMs, peakConnections, inFlightAtEnd, queuedAtEnd));
        raw.append(String.format(Locale.ROOT, "tls_handshakes=%d gzip_responses=%d responses_counted=%d request_bytes=%d"
                + " response_bytes=%d%n", total.handshakes, total.compressed, total.exchanges, total.requestBytes, total.responseBytes));
        if (level.isOpen()) {
            raw.append(String.format(Locale.ROOT, "window_arrivals_unanswered=%d (open model: arrivals of the window without an"
                    + " answer when it closed that had waited longer than its slowest answer; in the latency at their"
                    + " wait until then, a lower bound). Arrivals began %.1f s"
                    + " before the window, unmeasured, to open the connections the rate needs%n", total.unanswered,
                    NioHttpDriver.OPEN_LEAD_IN_NANOS / 1e9));
        }
        raw.append(percentiles("latency ms:", total.latency));
        if (level.isOpen()) {
            raw.append(percentiles("latency from the actual send ms (uncorrected):", total.uncorrected));
            raw.append(percentiles("schedule lag ms (actual send - intended start):", total.scheduleLag));
        }
        if (operations.size() > 1) {
            for (OperationFigures o : operations) {
                Latency l = o.latency();
                raw.append(String.format(Locale.ROOT, "operation %s: requests=%d errors=%d rps=%.1f latency ms: p50=%.3f"
                                + " p90=%.3f p99=%.3f p99.9=%.3f max=%.3f%n", o.name(), o.requests(), o.errors(), o.rps(),
                        l.p50(), l.p90(), l.p99(), l.p999(), l.max()));
            }
        }
        raw.append("requests per second of the window:");
        for (long count : perSecond) {
            raw.append(' ').append(count);
        }
        raw.append('\n');
        total.failures.forEach((reason, count) -> raw.append("failure x").append(count).append(": ").append(reason).append('\n'));
        raw.append("\nHdrHistogram percentile distribution (values in microseconds):\n");
        raw.append(distribution(total.latency));
        if (level.isOpen()) {
            raw.append("\nHdrHistogram percentile distribution of the latency from the actual send"
                    + " (uncorrected: leaves out the wait for the driver; values in microseconds):\n");
            raw.append(distribution(total.uncorrected));
            raw.append("\nHdrHistogram percentile distribution of the schedule lag"
                    + " (actual send - intended start; values in microseconds):\n");
            raw.append(distribution(total.scheduleLag));
        }
        return raw.toString();
    }

    private static String percentiles(String title, Histogram micros) {
        Latency l = Latency.ofMicros(micros);
        return String.format(Locale.ROOT, "%s p50=%.3f p90=%.3f p99=%.3f p99.9=%.3f max=%.3f%n",
                title, l.p50(), l.p90(), l.p99(), l.p999(), l.max());
    }

    private static String distribution(Histogram micros) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        micros.outputPercentileDistribution(new PrintStream(out, true, StandardCharsets.UTF_8), 5, 1.0);
        return out.toString(StandardCharsets.UTF_8);
    }
}
