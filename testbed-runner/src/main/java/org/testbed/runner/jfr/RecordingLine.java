package org.testbed.runner.jfr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.testbed.runfolder.jfr.JfrRecord;

/**
 * What a step's flight recording adds to the console's step line when it says something, and the
 * lines it adds to the step's raw file.
 */
public final class RecordingLine {
    /**
     * GC pauses as a share of the window from which the console names them: below it, a collector's
     * pauses are what any allocating server shows; above, they are a part of the latency.
     */
    static final double GC_PAUSE_SHARE = 0.01;

    private RecordingLine() {
    }

    /**
     * The words the step line gets, or nothing: {@code "  pinned 37 times, 1.2 s in all, longest 150 ms
     * GC paused 40 ms (1.3% of the window)  monitors waited 800 ms"}.
     */
    public static String headline(JfrRecord r) {
        List<String> said = new ArrayList<>();
        if (r.pinned().count() > 0) {
            said.add(String.format(Locale.ROOT, "pinned %s, %s in all, longest %s", times(r.pinned().count()),
                    duration(r.pinned().totalMs()), duration(r.pinned().longestMs())));
        }
        double windowMs = r.windowS() * 1000;
        if (windowMs > 0 && r.gcPauses().totalMs() >= GC_PAUSE_SHARE * windowMs) {
            said.add(String.format(Locale.ROOT, "GC paused %s, %s (%.1f%% of the window), longest %s", times(r.gcPauses().count()),
                    duration(r.gcPauses().totalMs()), 100 * r.gcPauses().totalMs() / windowMs, duration(r.gcPauses().longestMs())));
        }
        if (!r.monitors().isEmpty()) {
            said.add("contended monitors: " + r.monitors());
        }
        return said.isEmpty() ? "" : "  " + String.join("  ", said);
    }

    /** The raw file's lines: the recording and each figure with the events it came from. */
    public static String describe(JfrRecord r, WindowSummary s) {
        return String.format(Locale.ROOT, "flight recording %s (jcmd JFR.start %s), over the window of %.3f s:%n"
                        + "  pinned virtual threads (jdk.VirtualThreadPinned, 20 ms and longer): %s%n"
                        + "  GC pauses (jdk.GCPhasePause): %.0f, %.3f ms in all, longest %.3f ms%n"
                        + "  safepoints (jdk.SafepointBegin to jdk.SafepointEnd, from 0 ms): %.0f, %.3f ms in all, longest %.3f ms%n"
                        + "  allocated (jdk.ThreadAllocationStatistics, summed over threads, at the recording's start and end): %.1f MB"
                        + " in %.3f s = %.1f MB/s, %.2f kB/req%n"
                        + "  contended monitors (jdk.JavaMonitorEnter, 20 ms and longer; class, time, count): %s",
                r.file(), String.join(" ", WindowSummary.SETTINGS), r.windowS(),
                s.pinned() == null ? "not recorded (the server's JDK has no such event before JDK 21)"
                        : String.format(Locale.ROOT, "%.0f, %.3f ms in all, longest %.3f ms", r.pinned().count(), r.pinned().totalMs(),
                        r.pinned().longestMs()),
                r.gcPauses().count(), r.gcPauses().totalMs(), r.gcPauses().longestMs(), r.safepoints().count(),
                r.safepoints().totalMs(), r.safepoints().longestMs(), s.allocatedBytes() / 1e6, s.allocationS(), r.allocationMbPerS(),
                r.allocationKbPerReq(),
                r.monitors().isEmpty() ? "none" : r.monitors());
    }

    /** {@code once}, {@code 37 times}. */
    static String times(double n) {
        return n == 1 ? "once" : String.format(Locale.ROOT, "%.0f times", n);
    }

    /** {@code 150 ms}, or {@code 1.2 s} from a second. */
    static String duration(double ms) {
        return ms >= 1000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000) : String.format(Locale.ROOT, "%.0f ms", ms);
    }
}
