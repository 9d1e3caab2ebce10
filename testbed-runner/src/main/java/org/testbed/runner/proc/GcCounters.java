package org.testbed.runner.proc;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Garbage collections of another JVM, read without an agent and without starting a JVM: HotSpot
 * publishes its performance counters in a memory-mapped file, {@code /tmp/hsperfdata_USER/PID}
 * (the same data {@code jstat} shows). Reading it costs microseconds, so it can be done right before
 * and after every step. When the file is absent (a JVM run with {@code -XX:-UsePerfData} or
 * {@code -XX:+PerfDisableSharedMem}, or another tmpdir), {@code jstat -gc PID} is the fallback.
 *
 * <p>The figures are jstat's: {@code count} = YGC + FGC + CGC (the collectors' invocations) and
 * {@code millis} = GCT (their accumulated time; for G1 the young and full pauses plus the remark
 * and cleanup pauses of concurrent cycles).
 */
public record GcCounters(long count, double millis, String source) {
    private static final int MAGIC = 0xcafec0c0;

    /** The counters of JVM {@code pid}; {@code javaHome} (may be null) provides jstat for the fallback. */
    public static GcCounters read(long pid, Path javaHome) throws IOException {
        Path file = perfDataFile(pid);
        if (file != null) {
            try {
                return fromPerfData(file);
            } catch (IOException | RuntimeException e) {
                // fall back to jstat
            }
        }
        return fromJstat(pid, javaHome);
    }

    public GcCounters minus(GcCounters earlier) {
        return new GcCounters(count - earlier.count, millis - earlier.millis, source);
    }

    /** {@code /tmp/hsperfdata_USER/PID} (or under {@code java.io.tmpdir}), if it exists; else null. */
    public static Path perfDataFile(long pid) {
        String user = System.getProperty("user.name");
        for (String tmp : List.of("/tmp", System.getProperty("java.io.tmpdir"))) {
            Path candidate = Path.of(tmp, "hsperfdata_" + user, Long.toString(pid));
            if (Files.isReadable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Reads the collector counters from an hsperfdata file. */
    public static GcCounters fromPerfData(Path file) throws IOException {
        return fromCounters(readLongCounters(file, "sun.gc.collector.", "sun.os.hrt.frequency"), file.toString());
    }

    /**
     * Reads the collector counters from the bytes of an hsperfdata file copied from elsewhere (the
     * server's machine); {@code where} names it in errors.
     */
    public static GcCounters fromPerfData(byte[] data, String where) throws IOException {
        return fromCounters(readLongCounters(ByteBuffer.wrap(data), where, "sun.gc.collector.", "sun.os.hrt.frequency"), where);
    }

    private static GcCounters fromCounters(Map<String, Long> longs, String file) throws IOException {
        Long frequency = longs.get("sun.os.hrt.frequency");
        if (frequency == null || frequency <= 0) {
            throw new IOException("no sun.os.hrt.frequency in " + file);
        }
        long count = 0;
        long ticks = 0;
        boolean any = false;
        for (int i = 0; i < 8; i++) {
            Long invocations = longs.get("sun.gc.collector." + i + ".invocations");
            Long time = longs.get("sun.gc.collector." + i + ".time");
            if (invocations != null && time != null) {
                count += invocations;
                ticks += time;
                any = true;
            }
        }
        if (!any) {
            throw new IOException("no sun.gc.collector counters in " + file);
        }
        return new GcCounters(count, ticks * 1000.0 / frequency, "hsperfdata");
    }

    /** Every scalar long counter whose name starts with one of {@code prefixes}. */
    static Map<String, Long> readLongCounters(Path file, String... prefixes) throws IOException {
        ByteBuffer buffer;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r"); FileChannel channel = raf.getChannel()) {
            buffer = ByteBuffer.allocate((int) Math.min(channel.size(), 64L << 20));
            while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                // read it all: a snapshot, so the values are read once, consistently enough
            }
            buffer.flip();
        }
        return readLongCounters(buffer, file.toString(), prefixes);
    }

    /** As {@link #readLongCounters(Path, String...)}, from the file's bytes; {@code where} names it in errors. */
    static Map<String, Long> readLongCounters(ByteBuffer buffer, String where, String... prefixes) throws IOException {
        buffer.order(ByteOrder.BIG_ENDIAN);
        if (buffer.limit() < 32 || buffer.getInt(0) != MAGIC) {
            throw new IOException("not an hsperfdata file (bad magic): " + where);
        }
        buffer.order(buffer.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int entryOffset = buffer.getInt(24);
        int entries = buffer.getInt(28);
        Map<String, Long> values = new HashMap<>();
        int at = entryOffset;
        for (int i = 0; i < entries && at + 20 <= buffer.limit(); i++) {
            int entryLength = buffer.getInt(at);
            int nameOffset = buffer.getInt(at + 4);
            int vectorLength = buffer.getInt(at + 8);
            byte type = buffer.get(at + 12);
            int dataOffset = buffer.getInt(at + 16);
            if (entryLength <= 0) {
                break;
            }
            if (type == 'J' && vectorLength == 0) {
                String name = cString(buffer, at + nameOffset);
                for (String prefix : prefixes) {
                    if (name.startsWith(prefix)) {
                        values.put(name, buffer.getLong(at + dataOffset));
                        break;
                    }
                }
            }
            at += entryLength;
        }
        return values;
    }

    private static String cString(ByteBuffer buffer, int start) {
        int end = start;
        while (end < buffer.limit() && buffer.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - start];
        buffer.get(start, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** {@code jstat -gc PID}: sums YGC, FGC and CGC, and takes GCT (seconds). */
    static GcCounters fromJstat(long pid, Path javaHome) throws IOException {
        Path jstat = javaHome != null && Files.isExecutable(javaHome.resolve("bin/jstat"))
                ? javaHome.resolve("bin/jstat") : Path.of("jstat");
        Process process = new ProcessBuilder(jstat.toString(), "-gc", Long.toString(pid)).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("jstat -gc " + pid + " failed: " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return parseJstat(out);
    }

    /** Parses {@code jstat -gc} output: a header line and a value line. */
    public static GcCounters parseJstat(String out) throws IOException {
        String[] lines = out.strip().split("\n");
        if (lines.length < 2) {
            throw new IOException("unexpected jstat output: " + out);
        }
        String[] names = lines[0].trim().split("\\s+");
        String[] values = lines[lines.length - 1].trim().split("\\s+");
        long count = 0;
        double seconds = -1;
        for (int i = 0; i < names.length && i < values.length; i++) {
            switch (names[i]) {
                case "YGC", "FGC", "CGC" -> count += values[i].equals("-") ? 0 : Long.parseLong(values[i]);
                case "GCT" -> seconds = Double.parseDouble(values[i]);
                default -> {
                }
            }
        }
        if (seconds < 0) {
            throw new IOException("no GCT column in jstat output: " + out);
        }
        return new GcCounters(count, seconds * 1000.0, "jstat");
    }
}
