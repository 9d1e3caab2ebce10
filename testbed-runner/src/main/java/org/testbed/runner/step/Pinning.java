package org.testbed.runner.step;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.testbed.runfolder.CpuList;

/**
 * Which CPUs the server, memcached and the load driver get, applied with {@code taskset}. With two
 * or more CPUs the default splits them: the first half to the server alone, the rest to the load
 * driver and memcached, so that the server's throughput and CPU per request are those of its own
 * cores, with nothing else running there. An empty list means "not pinned".
 */
public record Pinning(String serverCpus, String loadCpus, String memcachedCpus) {

    public static final Pinning NONE = new Pinning("", "", "");

    /**
     * The pinning for the given options (null = default). {@code allowed} is the CPU list this
     * process may use.
     */
    public static Pinning decide(String server, String load, String memcached, List<Integer> allowed, boolean taskset) {
        if (!taskset) {
            if ((server != null && !server.isBlank()) || (load != null && !load.isBlank())) {
                throw new IllegalArgumentException("--server-cpus/--load-cpus need taskset (util-linux), which is not installed");
            }
            return NONE;
        }
        String s = server;
        String l = load;
        if (s == null && l == null) {
            if (allowed.size() < 2) {
                return NONE;
            }
            int half = allowed.size() / 2;
            s = format(allowed.subList(0, half));
            l = format(allowed.subList(half, allowed.size()));
        }
        s = s == null ? "" : s.strip();
        l = l == null ? "" : l.strip();
        if (!s.isEmpty()) {
            parse(s);
        }
        if (!l.isEmpty()) {
            parse(l);
        }
        String m = memcached == null ? l : memcached.strip();
        if (!m.isEmpty()) {
            parse(m);
        }
        return new Pinning(s, l, m);
    }

    private static volatile List<Integer> atStart;

    /** {@link #allowedCpus()} as it was on first call (before the runner pinned itself). */
    public static List<Integer> allowedCpusAtStart() {
        List<Integer> cpus = atStart;
        if (cpus == null) {
            cpus = allowedCpus();
            atStart = cpus;
        }
        return cpus;
    }

    /** The CPUs this process may run on ({@code Cpus_allowed_list} of /proc/self/status). */
    public static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parse(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            all.add(i);
        }
        return all;
    }

    public static boolean tasksetAvailable() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "taskset"))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/bin/taskset"));
    }

    /** Parses a taskset CPU list such as {@code 0}, {@code 0-3} or {@code 0,2-3}. */
    public static List<Integer> parse(String list) {
        return CpuList.parse(list);
    }

    public static String format(List<Integer> cpus) {
        StringBuilder out = new StringBuilder();
        for (int cpu : cpus) {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(cpu);
        }
        return out.toString();
    }

    /** How many CPUs the load driver may use (its event loops). */
    public int loadCpuCount() {
        return loadCpus.isEmpty() ? Runtime.getRuntime().availableProcessors() : parse(loadCpus).size();
    }

    /** {@code taskset -c CPUS} to put before a command, or nothing. */
    public static List<String> prefix(String cpus) {
        return cpus.isEmpty() ? List.of() : List.of("taskset", "-c", cpus);
    }

    /** Moves every thread of a running process to {@code cpus} ({@code taskset -a -p -c}). */
    public static void pin(long pid, String cpus) throws IOException {
        if (cpus.isEmpty()) {
            return;
        }
        taskset("-a", "-p", "-c", cpus, Long.toString(pid));
    }

    /** Moves one thread ({@code taskset -p -c}, a thread id as the kernel numbers it) to {@code cpus}. */
    public static void pinThread(long tid, String cpus) throws IOException {
        taskset("-p", "-c", cpus, Long.toString(tid));
    }

    private static void taskset(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("taskset"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    public String describe() {
        return serverCpus.isEmpty() && loadCpus.isEmpty() ? "not pinned"
                : "server on CPU " + or(serverCpus) + ", memcached on " + or(memcachedCpus) + ", load driver on " + or(loadCpus);
    }

    private static String or(String cpus) {
        return cpus.isEmpty() ? "any" : cpus;
    }
}
