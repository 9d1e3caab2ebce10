package org.testbed.runner.jfr;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runfolder.jfr.JfrRecord.Events;

/**
 * What a flight recording says about one window of it, read with the JDK's own parser
 * ({@link RecordingFile}): an event counts when it overlaps the window, with the part of it inside
 * the window (the recording starts before the window and ends after it, so that starting and
 * stopping it cost nothing inside the window).
 *
 * <ul>
 *   <li>pinned virtual threads: {@code jdk.VirtualThreadPinned} (JDK 21 and later; a virtual thread that
 *       blocked for 20 ms or more, the JDK's threshold, while it could not unmount from its carrier);</li>
 *   <li>GC pauses: {@code jdk.GCPhasePause}, one per stop-the-world pause of any collector (its
 *       {@code jdk.GarbageCollection} spans concurrent work too, which stops nobody);</li>
 *   <li>safepoints: from a {@code jdk.SafepointBegin} to the {@code jdk.SafepointEnd} of the same
 *       safepoint id, the time every Java thread was stopped (the begin event alone lasts only until the
 *       threads are stopped: 0.3 ms of a GC's 96 ms safepoint). The run records both from 0 ms: the default
 *       settings record the begin from 10 ms and not the end at all;</li>
 *   <li>allocation: {@code jdk.ThreadAllocationStatistics}, each thread's exact count of the bytes it
 *       allocated (a virtual thread's are its carrier's), which the default settings take at the
 *       recording's start and end: the difference covers the time between them, the step's readings
 *       before and after the window and the window itself, the span the CPU per request covers too. The
 *       sampled {@code jdk.ObjectAllocationSample} is taken only when a thread refills its allocation
 *       buffer, so a server that allocates little gets none in a few seconds (servlet-tomcat-virtual's
 *       delay step at 400 req/s got none in 3 s) and its weights cannot give a step's rate;</li>
 *   <li>contended monitors: {@code jdk.JavaMonitorEnter} (a wait of 20 ms or more to enter a
 *       {@code synchronized}), by the monitor's class, the three with the most time waited.</li>
 * </ul>
 *
 * @param windowS the window's length, seconds
 * @param pinned null when the recorded JDK has no {@code jdk.VirtualThreadPinned} (before 21)
 * @param allocatedBytes the bytes allocated between the recording's first and last allocation statistics
 * @param allocationS the time between those, seconds
 * @param monitors the most waited-on monitors' classes, most time first, at most {@value #TOP_MONITORS}
 */
public record WindowSummary(double windowS, Events pinned, Events gcPauses, Events safepoints, double allocatedBytes,
                            double allocationS, List<Monitor> monitors) {

    static final String PINNED = "jdk.VirtualThreadPinned";
    static final String GC_PAUSE = "jdk.GCPhasePause";
    static final String SAFEPOINT = "jdk.SafepointBegin";
    static final String SAFEPOINT_END = "jdk.SafepointEnd";
    static final String ALLOCATION = "jdk.ThreadAllocationStatistics";
    static final String MONITOR_ENTER = "jdk.JavaMonitorEnter";
    static final int TOP_MONITORS = 3;

    /**
     * The JDK's {@code default} settings (made to stay on in production, about 1 % overhead) with
     * every safepoint's begin and end recorded: the {@code jcmd JFR.start} arguments after the recording's name.
     * {@code profile} would sample stacks twice as often and record locks from 10 ms, at a cost this
     * run would then charge to every request.
     */
    public static final List<String> SETTINGS = List.of("settings=default", SAFEPOINT + "#threshold=0ms",
            SAFEPOINT_END + "#enabled=true", SAFEPOINT_END + "#threshold=0ms");

    /** Time waited to enter the monitors of one class. */
    public record Monitor(String className, double totalMs, long count) {
    }

    /** Reads {@code recording} and keeps what overlaps [{@code from}, {@code to}] (instants of the recording's clock). */
    public static WindowSummary of(Path recording, Instant from, Instant to) throws IOException {
        Accumulator pinned = new Accumulator();
        Accumulator pauses = new Accumulator();
        Map<Long, Instant> safepointBegins = new HashMap<>();
        Map<Long, Instant> safepointEnds = new HashMap<>();
        ThreadAllocations allocations = new ThreadAllocations();
        Map<String, Monitor> monitors = new HashMap<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                String name = e.getEventType().getName();
                switch (name) {
                    case PINNED -> pinned.add(e, from, to);
                    case GC_PAUSE -> pauses.add(e, from, to);
                    case SAFEPOINT -> safepointBegins.put(e.getLong("safepointId"), e.getStartTime());
                    case SAFEPOINT_END -> safepointEnds.put(e.getLong("safepointId"), e.getEndTime());
                    case ALLOCATION -> allocations.add(e);
                    case MONITOR_ENTER -> {
                        double ms = overlapMs(e, from, to);
                        if (ms > 0) {
                            RecordedClass type = e.getClass("monitorClass");
                            String cls = type == null ? "?" : type.getName();
                            monitors.merge(cls, new Monitor(cls, ms, 1),
                                    (a, b) -> new Monitor(cls, a.totalMs() + b.totalMs(), a.count() + b.count()));
                        }
                    }
                    default -> {
                    }
                }
            }
        }
        Accumulator safepoints = new Accumulator();
        safepointBegins.forEach((id, begin) -> {
            Instant end = safepointEnds.get(id);
            if (end != null) {
                safepoints.add(begin, end, from, to);
            }
        });
        boolean pinnedKnown;
        // A file of its own: the event types are read from every chunk's metadata, past the events.
        try (RecordingFile file = new RecordingFile(recording)) {
            pinnedKnown = file.readEventTypes().stream().map(EventType::getName).anyMatch(PINNED::equals);
        }
        List<Monitor> top = monitors.values().stream().sorted(Comparator.comparingDouble(Monitor::totalMs).reversed())
                .limit(TOP_MONITORS).toList();
        return new WindowSummary(Duration.between(from, to).toNanos() / 1e9, pinnedKnown ? pinned.events() : null,
                pauses.events(), safepoints.events(), allocations.bytes(), allocations.seconds(), top);
    }

    /**
     * Each thread's allocated bytes at the first and last time the recording took them: a thread seen
     * at both counts the difference, one first seen after the start counts whole (it was born since),
     * one seen only at the start had ended.
     */
    private static final class ThreadAllocations {
        private final Map<Long, long[]> firstAndLast = new HashMap<>();
        private final Map<Long, Instant> firstSeen = new HashMap<>();
        private Instant start;
        private Instant end;

        void add(RecordedEvent e) {
            long thread = e.getThread("thread") == null ? -1 : e.getThread("thread").getId();
            long bytes = e.getLong("allocated");
            Instant at = e.getStartTime();
            start = start == null || at.isBefore(start) ? at : start;
            end = end == null || at.isAfter(end) ? at : end;
            long[] seen = firstAndLast.get(thread);
            if (seen == null) {
                firstAndLast.put(thread, new long[] {bytes, bytes});
                firstSeen.put(thread, at);
            } else {
                seen[1] = bytes;
            }
        }

        /** The bytes allocated between the first and the last statistics; NaN when they were taken once or never. */
        double bytes() {
            if (seconds() <= 0) {
                return Double.NaN;
            }
            // The statistics of one moment are a batch of events a few ms apart: within a second of the first is the start.
            Instant startBatch = start.plusSeconds(1);
            double total = 0;
            for (Map.Entry<Long, long[]> t : firstAndLast.entrySet()) {
                boolean born = firstSeen.get(t.getKey()).isAfter(startBatch);
                total += born ? t.getValue()[1] : t.getValue()[1] - t.getValue()[0];
            }
            return total;
        }

        double seconds() {
            return start == null ? 0 : Duration.between(start, end).toNanos() / 1e9;
        }
    }

    /** The part of a duration event inside the window, ms; 0 when it lies outside. */
    private static double overlapMs(RecordedEvent e, Instant from, Instant to) {
        return overlapMs(e.getStartTime(), e.getEndTime(), from, to);
    }

    private static double overlapMs(Instant eventStart, Instant eventEnd, Instant from, Instant to) {
        Instant start = eventStart.isBefore(from) ? from : eventStart;
        Instant end = eventEnd.isAfter(to) ? to : eventEnd;
        if (end.isBefore(start) || eventEnd.isBefore(from) || eventStart.isAfter(to)) {
            return 0;
        }
        return Duration.between(start, end).toNanos() / 1e6;
    }

    /** Count, total and longest of the events of one kind that overlap the window. */
    private static final class Accumulator {
        private long count;
        private double totalMs;
        private double longestMs;

        void add(RecordedEvent e, Instant from, Instant to) {
            add(e.getStartTime(), e.getEndTime(), from, to);
        }

        void add(Instant start, Instant end, Instant from, Instant to) {
            if (end.isBefore(from) || start.isAfter(to)) {
                return;
            }
            double ms = overlapMs(start, end, from, to);
            count++;
            totalMs += ms;
            longestMs = Math.max(longestMs, ms);
        }

        Events events() {
            return new Events(count, totalMs, longestMs);
        }
    }

    /** The allocation rate, MB/s (10^6 bytes). */
    public double allocationMbPerS() {
        return allocationS > 0 ? allocatedBytes / 1e6 / allocationS : Double.NaN;
    }

    /**
     * The bytes a request allocated, kB (10^3 bytes): over the time between the recording's first and last
     * statistics, which the window's requests dominate as they do the CPU per request.
     */
    public double allocationKbPerRequest(long requests) {
        return requests > 0 ? allocatedBytes / 1e3 / requests : Double.NaN;
    }

    /** jfr.csv's form of the contended monitors: {@code class ms count} each, separated by {@code "; "}. */
    public String monitorsText() {
        return monitors.stream().map(m -> String.format(Locale.ROOT, "%s %.0fms %d", m.className(), m.totalMs(), m.count()))
                .collect(Collectors.joining("; "));
    }

    /** The summary as one sample's row of jfr.csv. */
    public JfrRecord record(ResultRow.StepKey key, int repeat, int iteration, long requests, String file) {
        return new JfrRecord(key, repeat, iteration, requests, windowS, pinned == null ? Events.UNKNOWN : pinned, gcPauses,
                safepoints, allocationMbPerS(), allocationKbPerRequest(requests), monitorsText(), file);
    }
}
