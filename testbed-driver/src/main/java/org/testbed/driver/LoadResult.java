package org.testbed.driver;

import java.util.Arrays;
import java.util.Objects;

/**
 * What a driver measured in one step, client side.
 *
 * @param driver the driver's name, as the CSV's {@code driver} column shows it
 * @param requests responses received inside the measured window
 * @param errors of those, the ones that failed (wrong status or content), plus I/O errors and timeouts
 * @param seconds the measured window: the time load was actually applied (shorter than asked when a
 *     {@link WindowWatcher} stopped it early)
 * @param latency response time; for open models measured from the intended start (no coordinated omission)
 * @param driverCpuMs CPU time the driver itself used during the window (user + system)
 * @param peakConnections most connections open at once
 * @param raw the driver's own output for the step's raw file
 * @param perSecond requests counted in each second of the window: window {@code i} holds the responses
 *     that arrived in [start + i s, start + (i + 1) s); the last window is shorter when {@code seconds}
 *     is not whole. Their sum is {@code requests}. Empty when the driver does not know them.
 * @param uncorrected response time from the moment the request was actually sent (wrk2's {@code -U}):
 *     for open models it leaves out the time a request waited for the driver, so it hides coordinated
 *     omission; for closed models the same as {@code latency}
 * @param scheduleLagP99Ms open models: p99 of how late requests were sent after their intended start
 *     (the driver falling behind its schedule); 0 for closed models, whose requests are sent when intended
 * @param scheduleLagMaxMs the same, the largest
 * @param tlsHandshakes TLS handshakes the driver's connections made for the step (connections opened
 *     before the window included, reconnects too); 0 over plain HTTP or when the driver does not know
 * @param gzipResponses responses in the window that came gzip-compressed; 0 without gzip
 */
public record LoadResult(String driver, long requests, long errors, double seconds, Latency latency,
                         double driverCpuMs, int peakConnections, String raw, long[] perSecond,
                         Latency uncorrected, double scheduleLagP99Ms, double scheduleLagMaxMs, long tlsHandshakes,
                         long gzipResponses) {

    public LoadResult {
        perSecond = perSecond == null ? new long[0] : perSecond.clone();
        uncorrected = uncorrected == null ? latency : uncorrected;
    }

    /** Without TLS handshake or gzip counts (a driver that does not know them). */
    public LoadResult(String driver, long requests, long errors, double seconds, Latency latency,
                      double driverCpuMs, int peakConnections, String raw, long[] perSecond,
                      Latency uncorrected, double scheduleLagP99Ms, double scheduleLagMaxMs) {
        this(driver, requests, errors, seconds, latency, driverCpuMs, peakConnections, raw, perSecond, uncorrected,
                scheduleLagP99Ms, scheduleLagMaxMs, 0, 0);
    }

    /** A closed-model result without per-second windows: uncorrected latency = latency, no schedule lag. */
    public LoadResult(String driver, long requests, long errors, double seconds, Latency latency,
                      double driverCpuMs, int peakConnections, String raw) {
        this(driver, requests, errors, seconds, latency, driverCpuMs, peakConnections, raw, new long[0], latency, 0, 0, 0, 0);
    }

    public double rps() {
        return seconds > 0 ? requests / seconds : 0;
    }

    /** A copy of the requests counted per second of the window. */
    @Override
    public long[] perSecond() {
        return perSecond.clone();
    }

    /**
     * Throughput in each window of {@link #perSecond()}, in requests per second: the count over the
     * window's length (1 s, or less for a last, partial window).
     */
    public double[] windowRps() {
        double[] rps = new double[perSecond.length];
        for (int i = 0; i < rps.length; i++) {
            double length = Math.min(1.0, seconds - i);
            rps[i] = length > 0 ? perSecond[i] / length : 0;
        }
        return rps;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoadResult r && driver.equals(r.driver) && requests == r.requests && errors == r.errors
                && Double.compare(seconds, r.seconds) == 0 && latency.equals(r.latency)
                && Double.compare(driverCpuMs, r.driverCpuMs) == 0 && peakConnections == r.peakConnections
                && raw.equals(r.raw) && Arrays.equals(perSecond, r.perSecond) && uncorrected.equals(r.uncorrected)
                && Double.compare(scheduleLagP99Ms, r.scheduleLagP99Ms) == 0
                && Double.compare(scheduleLagMaxMs, r.scheduleLagMaxMs) == 0
                && tlsHandshakes == r.tlsHandshakes && gzipResponses == r.gzipResponses;
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hash(driver, requests, errors, seconds, latency, driverCpuMs, peakConnections,
                raw, uncorrected, scheduleLagP99Ms, scheduleLagMaxMs, tlsHandshakes, gzipResponses) + Arrays.hashCode(perSecond);
    }

    @Override
    public String toString() {
        return "LoadResult[driver=" + driver + ", requests=" + requests + ", errors=" + errors + ", seconds=" + seconds
                + ", latency=" + latency + ", driverCpuMs=" + driverCpuMs + ", peakConnections=" + peakConnections
                + ", perSecond=" + Arrays.toString(perSecond) + ", uncorrected=" + uncorrected
                + ", scheduleLagP99Ms=" + scheduleLagP99Ms + ", scheduleLagMaxMs=" + scheduleLagMaxMs
                + ", tlsHandshakes=" + tlsHandshakes + ", gzipResponses=" + gzipResponses + "]";
    }
}
