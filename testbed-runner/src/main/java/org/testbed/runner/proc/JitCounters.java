package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;

/**
 * How much time a HotSpot JVM's JIT compilers have spent compiling so far ({@code java.ci.totalTime}
 * of its hsperfdata file, the counter {@code jstat -compiler} shows), to tell a server whose
 * throughput is flat because it is done compiling from one that sits on a plateau while its
 * compiler queue waits for CPU. On one core the compiler threads compete with the request threads:
 * spring-tomcat on one core climbs from 2 k to 30 k req/s over 70 s in steps, with flat stretches
 * of 6 s on the way that a throughput-only detector takes for the end.
 *
 * @param millis compile time so far, milliseconds (all compiler threads)
 */
public record JitCounters(double millis) {

    /** The counters of JVM {@code pid}, or null when it publishes none (-XX:-UsePerfData, not HotSpot). */
    public static JitCounters read(long pid) {
        Path file = GcCounters.perfDataFile(pid);
        if (file == null) {
            return null;
        }
        try {
            return of(GcCounters.readLongCounters(file, "java.ci.totalTime", "sun.os.hrt.frequency"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The counters in the bytes of an hsperfdata file copied from elsewhere (the server's machine), or null. */
    public static JitCounters fromPerfData(byte[] data) {
        try {
            return of(GcCounters.readLongCounters(ByteBuffer.wrap(data), "hsperfdata", "java.ci.totalTime",
                    "sun.os.hrt.frequency"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static JitCounters of(Map<String, Long> longs) {
        Long ticks = longs.get("java.ci.totalTime");
        Long frequency = longs.get("sun.os.hrt.frequency");
        if (ticks == null || frequency == null || frequency <= 0) {
            return null;
        }
        return new JitCounters(ticks * 1000.0 / frequency);
    }
}
