package org.testbed.jmeter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.testbed.driver.IntervalLog;
import org.testbed.driver.Latency;
import org.testbed.driver.LoadResult.OperationFigures;

/**
 * A step's figures from JMeter's samples, counted the way testbed-nio counts its responses: those
 * that end inside the window {@code [start, start + seconds)}, each latency recorded in an
 * HdrHistogram (microseconds, 3 significant digits) for the step and for its operation, so that
 * every percentile is read from all the samples, never averaged, and second by second for the
 * interval log. Samples that started before the window's end and ended after it were in flight when
 * it closed: they are unfinished ({@link #unfinished}), neither requests nor errors of the window,
 * whether JMeter let them finish later or interrupted them when its schedule was over (an interrupted
 * sampler is a failed sample, which is JMeter's cut, not the server's error). Samples ending before
 * the window (JMeter's warm-up, the realistic users' ramp) are left out.
 */
final class JtlWindow {
    private static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);
    /** Distinct failure reasons kept for the raw file; the rest count under one line. */
    private static final int MAX_REASONS = 20;

    private final long startMillis;
    private final long endMillis;
    private final List<String> labels;
    final Histogram latency = new Histogram(HIGHEST_MICROS, 3);
    private final Histogram[] operationLatency;
    private final long[] operationRequests;
    private final long[] operationErrors;
    private final long[] perSecond;
    private final Map<String, Long> failures = new LinkedHashMap<>();
    /** Requests and errors of the window by engine (load host), in the order they were first seen. */
    private final Map<String, long[]> byEngine = new LinkedHashMap<>();
    private final IntervalLog.Collector intervals;
    long requests;
    long errors;
    /** Samples in flight when the window ended: started before its end, ended at or after it. */
    long unfinished;
    /** Samples started after the window (none when JMeter's schedule ends with it): left out. */
    long afterWindow;
    long beforeWindow;
    long unlabelled;

    /** {@code labels}: the workload's operations, in its order. */
    JtlWindow(List<String> labels, long startMillis, long seconds) {
        this.labels = List.copyOf(labels);
        this.startMillis = startMillis;
        this.endMillis = startMillis + TimeUnit.SECONDS.toMillis(seconds);
        this.operationLatency = new Histogram[labels.size()];
        for (int i = 0; i < operationLatency.length; i++) {
            operationLatency[i] = new Histogram(HIGHEST_MICROS, 3);
        }
        this.operationRequests = new long[labels.size()];
        this.operationErrors = new long[labels.size()];
        this.perSecond = new long[(int) seconds];
        this.intervals = new IntervalLog.Collector(labels);
    }

    void add(JtlReader.Sample s) {
        long end = s.endMillis();
        if (end < startMillis) {
            beforeWindow++; // the warm-up, or the ramp-up of realistic users: not the steady part
            return;
        }
        if (end >= endMillis) {
            if (s.startMillis() < endMillis) {
                unfinished++;
            } else {
                afterWindow++;
            }
            return;
        }
        long micros = Math.min(HIGHEST_MICROS, TimeUnit.MILLISECONDS.toMicros(Math.max(0, s.elapsedMillis())));
        requests++;
        latency.recordValue(micros);
        long[] engine = byEngine.computeIfAbsent(s.engine(), e -> new long[2]);
        engine[0]++;
        if (!s.success()) {
            engine[1]++;
        }
        int second = (int) Math.max(0, Math.min(perSecond.length - 1, (end - startMillis) / 1000));
        perSecond[second]++;
        int op = labels.indexOf(s.label());
        intervals.record(second, op, micros);
        if (op >= 0) {
            operationRequests[op]++;
            operationLatency[op].recordValue(micros);
        } else {
            unlabelled++;
        }
        if (!s.success()) {
            errors++;
            if (op >= 0) {
                operationErrors[op]++;
            }
            String reason = s.label() + ": " + reason(s);
            if (failures.containsKey(reason) || failures.size() < MAX_REASONS) {
                failures.merge(reason, 1L, Long::sum);
            } else {
                failures.merge("(other reasons)", 1L, Long::sum);
            }
        }
    }

    long[] perSecond() {
        return perSecond.clone();
    }

    /** When the window starts, epoch milliseconds. */
    long startMillis() {
        return startMillis;
    }

    /** Requests and errors ({@code [requests, errors]}) of the window by the engine that took them. */
    Map<String, long[]> byEngine() {
        return byEngine;
    }

    Map<String, Long> failures() {
        return failures;
    }

    /** The operations the window saw, in the workload's order. */
    List<OperationFigures> operations(double seconds) {
        List<OperationFigures> figures = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            if (operationRequests[i] > 0) {
                figures.add(new OperationFigures(labels.get(i), operationRequests[i], operationErrors[i],
                        operationRequests[i] / seconds, Latency.ofMicros(operationLatency[i])));
            }
        }
        return figures;
    }

    /** The latencies second by second, in all and per operation seen, as testbed-nio's interval logs hold them. */
    IntervalLog intervals(double seconds) {
        int[] seen = IntStream.range(0, labels.size()).filter(i -> operationRequests[i] > 0).toArray();
        return intervals.build(startMillis, seconds, perSecond.length, seen);
    }

    /**
     * The first line of JMeter's message and the status it got: an assertion's first line names only
     * what was expected, and the status (or JMeter's text for a failure without one, such as a reset
     * connection) is what tells one failure from another.
     */
    private static String reason(JtlReader.Sample s) {
        String message = s.failureMessage().strip();
        String status = "status " + s.responseCode();
        if (message.isEmpty()) {
            return status;
        }
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip() + " (" + status + ")";
    }
}
