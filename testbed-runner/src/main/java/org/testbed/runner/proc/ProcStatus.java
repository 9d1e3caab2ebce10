package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Memory figures from {@code /proc/PID/status}: resident set size now and at its peak. */
public record ProcStatus(long vmRssKb, long vmHwmKb) {

    public static ProcStatus read(long pid) throws IOException {
        return parse(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
    }

    /** Parses the {@code VmRSS:} and {@code VmHWM:} lines (kB); a missing line reads as 0. */
    public static ProcStatus parse(String status) {
        long rss = 0;
        long hwm = 0;
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                rss = kilobytes(line);
            } else if (line.startsWith("VmHWM:")) {
                hwm = kilobytes(line);
            }
        }
        return new ProcStatus(rss, hwm);
    }

    public double rssMb() {
        return vmRssKb / 1024.0;
    }

    private static long kilobytes(String line) {
        String[] parts = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
        long value = Long.parseLong(parts[0]);
        if (parts.length > 1 && !parts[1].equalsIgnoreCase("kB")) {
            throw new IllegalArgumentException("unexpected unit in /proc/PID/status: " + line);
        }
        return value;
    }
}
