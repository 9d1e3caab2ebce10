package org.testbed.driver;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What a driver measured in one step, client side. Built from named parts, so that no caller lines up
 * a dozen numbers by position; its accessors read the parts' figures directly ({@link #requests()},
 * {@link #latency()}, {@link #tlsHandshakes()}, ...), as everyone who reads a result uses them.
 *
 * @param driver the driver's name, as the CSV's {@code driver} column shows it
 * @param throughput what the window counted: its length, the requests and errors in it, per second, and
 *     the requests still in flight when it ended (unfinished: the driver's cut, not the server's error)
 * @param clientLatency response times and how far the driver fell behind its schedule
 * @param driverCpuMs CPU time the driver itself used during the window (user + system)
 * @param peakConnections most connections open at once
 * @param transport TLS handshakes and gzip responses the driver counted
 * @param raw the driver's own output for the step's raw file
 * @param operations the figures of each operation ({@link OperationFigures}), in the workload's order,
 *     those the window saw; empty when the driver does not break its figures down (wrk)
 * @param intervals the latencies second by second, total and per operation, for an HdrHistogram
 *     interval log; {@link IntervalLog#NONE} when the driver keeps none (wrk)
 * @param operationsUnavailable why {@code operations} is empty although the workload has several
 *     kinds of request (wrk: {@link WrkDriver#ONE_HISTOGRAM}); empty when the figures are there, so
 *     that whoever shows them says why rather than showing nothing
 * @param loadHostsBusiestPct with the load sent from other machines (JMeter's distributed mode): the
 *     busiest one's load engine CPU over the window, in % of that machine's CPUs, which flags the
 *     step's load side saturated as the driver's share of the load CPUs does here; NaN otherwise
 */
public record LoadResult(String driver, Throughput throughput, ClientLatency clientLatency, double driverCpuMs,
                         int peakConnections, TransportCounts transport, String raw, List<OperationFigures> operations,
                         IntervalLog intervals, String operationsUnavailable, double loadHostsBusiestPct) {

    public LoadResult {
        Objects.requireNonNull(throughput, "throughput");
        Objects.requireNonNull(clientLatency, "clientLatency");
        Objects.requireNonNull(transport, "transport");
        operations = operations == null ? List.of() : List.copyOf(operations);
        intervals = intervals == null ? IntervalLog.NONE : intervals;
        operationsUnavailable = operationsUnavailable == null ? "" : operationsUnavailable;
    }

    /** A result of load sent from this machine. */
    public LoadResult(String driver, Throughput throughput, ClientLatency clientLatency, double driverCpuMs,
                      int peakConnections, TransportCounts transport, String raw, List<OperationFigures> operations,
                      IntervalLog intervals, String operationsUnavailable) {
        this(driver, throughput, clientLatency, driverCpuMs, peakConnections, transport, raw, operations, intervals,
                operationsUnavailable, Double.NaN);
    }

    /** A result with every figure it has: its operations' are all there (or it has one operation). */
    public LoadResult(String driver, Throughput throughput, ClientLatency clientLatency, double driverCpuMs,
                      int peakConnections, TransportCounts transport, String raw, List<OperationFigures> operations,
                      IntervalLog intervals) {
        this(driver, throughput, clientLatency, driverCpuMs, peakConnections, transport, raw, operations, intervals, "");
    }

    /** A result of a driver that gives totals only: no per-operation figures, no intervals. */
    public LoadResult(String driver, Throughput throughput, ClientLatency clientLatency, double driverCpuMs,
                      int peakConnections, TransportCounts transport, String raw) {
        this(driver, throughput, clientLatency, driverCpuMs, peakConnections, transport, raw, List.of(), IntervalLog.NONE);
    }

    /**
     * What the window counted.
     *
     * @param requests responses received inside the measured window
     * @param errors of those, the ones that failed (wrong status or content), plus I/O errors and timeouts
     * @param seconds the measured window: the time load was actually applied (shorter than asked when a
     *     {@link WindowWatcher} stopped it early)
     * @param perSecond requests counted in each second of the window: window {@code i} holds the
     *     responses that arrived in [start + i s, start + (i + 1) s); the last window is shorter when
     *     {@code seconds} is not whole. Their sum is {@code requests}. Empty (or null) when the driver
     *     does not know them.
     * @param unfinished requests the driver had sent and still had no answer to when the window ended,
     *     which it then cut (abandoned, or interrupted as JMeter does): neither a request nor an error of
     *     the window, since what they would have got is not known; a server's errors are in {@code errors}
     */
    public record Throughput(long requests, long errors, double seconds, long[] perSecond, long unfinished) {

        public Throughput {
            perSecond = perSecond == null ? new long[0] : perSecond.clone();
            if (unfinished < 0) {
                throw new IllegalArgumentException("unfinished requests cannot be negative: " + unfinished);
            }
        }

        /** A window that ended with no request in flight (or whose driver does not know). */
        public Throughput(long requests, long errors, double seconds, long[] perSecond) {
            this(requests, errors, seconds, perSecond, 0);
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

        // A record compares an array by identity: these compare and print its counts instead.

        @Override
        public boolean equals(Object o) {
            return o instanceof Throughput t && requests == t.requests && errors == t.errors
                    && Double.compare(seconds, t.seconds) == 0 && Arrays.equals(perSecond, t.perSecond)
                    && unfinished == t.unfinished;
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hash(requests, errors, seconds, unfinished) + Arrays.hashCode(perSecond);
        }

        @Override
        public String toString() {
            return "Throughput[requests=" + requests + ", errors=" + errors + ", seconds=" + seconds
                    + ", perSecond=" + Arrays.toString(perSecond) + ", unfinished=" + unfinished + "]";
        }
    }

    /**
     * The response times a client saw, and how far the driver fell behind its schedule.
     *
     * @param latency response time; for open models measured from the intended start (no coordinated omission)
     * @param uncorrected response time from the moment the request was actually sent (wrk2's {@code -U}):
     *     for open models it leaves out the time a request waited for the driver, so it hides coordinated
     *     omission; for closed models the same as {@code latency} (null stands for that)
     * @param scheduleLagP99Ms open models: p99 of how late requests were sent after their intended start
     *     (the driver falling behind its schedule); 0 for closed models, whose requests are sent when intended
     * @param scheduleLagMaxMs the same, the largest
     */
    public record ClientLatency(Latency latency, Latency uncorrected, double scheduleLagP99Ms,
                                double scheduleLagMaxMs) {

        public ClientLatency {
            uncorrected = uncorrected == null ? latency : uncorrected;
        }

        /** A closed model sends each request when intended: no schedule lag, nothing to correct. */
        public static ClientLatency closedModel(Latency latency) {
            return new ClientLatency(latency, latency, 0, 0);
        }
    }

    /**
     * What the transport did, counted for the step.
     *
     * @param tlsHandshakes TLS handshakes the driver's connections made for the step (connections opened
     *     before the window included, reconnects too); 0 over plain HTTP or when the driver does not know
     * @param gzipResponses responses in the window that came gzip-compressed; 0 without gzip
     * @param exchanges whole responses of the window whose bytes were counted; 0 for a driver that does not count them
     * @param requestBytes the bytes of HTTP their requests took, as the driver wrote them
     * @param responseBytes the bytes of HTTP of those responses as the driver read them (compressed under gzip;
     *     TLS records and TCP framing not included)
     */
    public record TransportCounts(long tlsHandshakes, long gzipResponses, long exchanges, long requestBytes,
                                  long responseBytes) {
        /** Plain HTTP without gzip, or a driver that does not count these. */
        public static final TransportCounts NONE = new TransportCounts(0, 0);

        /** Handshakes and gzip responses, without the bytes (a driver that does not count them). */
        public TransportCounts(long tlsHandshakes, long gzipResponses) {
            this(tlsHandshakes, gzipResponses, 0, 0, 0);
        }

        /** The bytes a request took on the wire, on average; NaN when none were counted. */
        public double requestBytesPerResponse() {
            return exchanges > 0 ? (double) requestBytes / exchanges : Double.NaN;
        }

        /** The bytes a response took on the wire, on average; NaN when none were counted. */
        public double responseBytesPerResponse() {
            return exchanges > 0 ? (double) responseBytes / exchanges : Double.NaN;
        }
    }

    /**
     * One operation's share of the step ({@code GET} of the mix, {@code create} of the journey, the
     * route of a single-route scenario: see {@code Operations}), merged over the event loops as the
     * totals are: counts added, histograms added bucket by bucket before any percentile is read.
     *
     * @param name the operation's label
     * @param requests its responses in the window, counted as {@link Throughput#requests()} counts
     *     them: the operations' requests add up to the step's
     * @param errors of those, the failed ones (an error of no request, a failed connect, is the step's only)
     * @param rps {@code requests} over the window's length
     * @param latency its response times, measured as the step's {@link ClientLatency#latency()}
     */
    public record OperationFigures(String name, long requests, long errors, double rps, Latency latency) {
        public OperationFigures {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(latency, "latency");
        }
    }

    public long requests() {
        return throughput.requests();
    }

    public long errors() {
        return throughput.errors();
    }

    public double seconds() {
        return throughput.seconds();
    }

    /** Requests cut at the window's end, without an answer ({@link Throughput#unfinished()}). */
    public long unfinished() {
        return throughput.unfinished();
    }

    /** A copy of the requests counted per second of the window ({@link Throughput#perSecond}). */
    public long[] perSecond() {
        return throughput.perSecond();
    }

    public double rps() {
        return throughput.rps();
    }

    /** Requests per second in each second of the window ({@link Throughput#windowRps}). */
    public double[] windowRps() {
        return throughput.windowRps();
    }

    public Latency latency() {
        return clientLatency.latency();
    }

    public Latency uncorrected() {
        return clientLatency.uncorrected();
    }

    public double scheduleLagP99Ms() {
        return clientLatency.scheduleLagP99Ms();
    }

    public double scheduleLagMaxMs() {
        return clientLatency.scheduleLagMaxMs();
    }

    public long tlsHandshakes() {
        return transport.tlsHandshakes();
    }

    public long gzipResponses() {
        return transport.gzipResponses();
    }

    /** Everything but {@link #raw()} and the intervals: the driver's whole output would drown the figures. */
    @Override
    public String toString() {
        return "LoadResult[driver=" + driver + ", " + throughput + ", " + clientLatency + ", driverCpuMs=" + driverCpuMs
                + ", peakConnections=" + peakConnections + ", " + transport + ", operations=" + operations
                + (operationsUnavailable.isEmpty() ? "" : " (" + operationsUnavailable + ")") + "]";
    }
}
