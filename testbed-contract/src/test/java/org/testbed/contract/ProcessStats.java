package org.testbed.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What the kernel says about a server process, read from {@code /proc/PID}: its platform threads,
 * open file descriptors and resident memory. Virtual threads are not kernel threads and do not
 * show here; a leak of them shows as heap, not as threads.
 */
record ProcessStats(int threads, int fileDescriptors, long rssKb) {

    static ProcessStats of(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            int fdCount = (int) fds.count();
            int threads = 0;
            long rss = 0;
            for (String line : Files.readAllLines(proc.resolve("status"))) {
                if (line.startsWith("Threads:")) {
                    threads = Integer.parseInt(line.substring("Threads:".length()).strip());
                } else if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").strip());
                }
            }
            return new ProcessStats(threads, fdCount, rss);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + proc + " (is the process alive?)", e);
        }
    }

    long rssMb() {
        return Math.round(rssKb / 1024.0);
    }

    @Override
    public String toString() {
        return threads + " threads, " + fileDescriptors + " fds, " + rssMb() + " MB RSS";
    }
}
