package org.testbed.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A server's platform threads counted by family, read from {@code /proc/PID/task/*}{@code /comm}:
 * the JVM gives each kernel thread the Java thread's name, cut to 15 characters, and the family is
 * that name without its trailing number ({@code jetty-sync-42} and {@code jetty-sync-7} are one
 * family). Families tell a pool filling up to its load, which is no fault, from a thread made per
 * fault and never ended, which is a leak: the count alone cannot.
 */
record ThreadCensus(Map<String, Integer> families) {

    /**
     * The request pools of the servers the variants run on (Tomcat's connector threads, the pools
     * testbed-containers names {@code jetty-<mode>}, Vert.x's event loops and workers): they grow
     * with the concurrency a server has seen, up to their configured size.
     */
    private static final List<String> REQUEST_POOLS = List.of("http-nio", "jetty-", "vert.x-");

    /** The JVM's own threads, which it starts and retires by itself (dynamic GC and JIT threads). */
    private static final List<String> JVM_THREADS = List.of("GC Thread", "C1 CompilerThre", "C2 CompilerThre",
            "G1 Conc", "G1 Refine");

    static ThreadCensus of(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        Map<String, Integer> families = new TreeMap<>();
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                String name;
                try {
                    name = Files.readString(thread.resolve("comm")).strip();
                } catch (NoSuchFileException ended) {
                    continue; // the thread ended between the listing and the read
                }
                families.merge(family(name), 1, Integer::sum);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + tasks + " (is the process alive?)", e);
        }
        return new ThreadCensus(families);
    }

    static String family(String threadName) {
        return threadName.replaceAll("[-#]?[0-9]+$", "");
    }

    /** Family by family, the smaller count of the two censuses: a thread counted once in passing is not kept. */
    ThreadCensus lowest(ThreadCensus other) {
        Map<String, Integer> lowest = new TreeMap<>();
        Set<String> names = new HashSet<>(families.keySet());
        names.addAll(other.families.keySet());
        for (String name : names) {
            lowest.put(name, Math.min(families.getOrDefault(name, 0), other.families.getOrDefault(name, 0)));
        }
        return new ThreadCensus(lowest);
    }

    /** The threads of the request pools, together. */
    int requestPoolThreads() {
        return families.entrySet().stream().filter(e -> isRequestPool(e.getKey())).mapToInt(Map.Entry::getValue).sum();
    }

    /** The families, other than the request pools and the JVM's own, that have more threads than in {@code before}. */
    Map<String, Integer> otherGrowthSince(ThreadCensus before) {
        Map<String, Integer> growth = new TreeMap<>();
        families.forEach((name, count) -> {
            int added = count - before.families.getOrDefault(name, 0);
            if (added > 0 && !isRequestPool(name) && !JVM_THREADS.contains(name)) {
                growth.put(name, added);
            }
        });
        return growth;
    }

    private static boolean isRequestPool(String family) {
        return REQUEST_POOLS.stream().anyMatch(family::startsWith);
    }
}
