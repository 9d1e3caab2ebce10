package org.testbed.runner.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Stops a server's every thread and lets it go on later, so that a run can keep several warm JVMs
 * on one CPU and measure them in turns: a frozen JVM keeps its compiled code, its heap and its
 * connections to memcached, and takes no CPU at all, so the one being measured runs alone on the
 * server CPU as it would without the others.
 *
 * <p>Two ways, the first that works: a cgroup v2 of its own per server whose {@code cgroup.freeze}
 * the kernel honours for every thread at once ({@link Cgroup}); else SIGSTOP and SIGCONT
 * ({@link Signals}), which every Linux has. Either way the call returns once every thread has
 * stopped (or runs again), so that the next window does not share the CPU with a JVM still
 * winding down. A frozen server cannot handle SIGTERM: {@link #thawAll} lets every frozen one go
 * before a run stops its servers, on any way out.
 */
public abstract class Freezer {
    /** How long freezing or thawing may take before it counts as failed. */
    static final long SETTLE_MS = 10_000;
    private static final Set<Freezer> LIVE = ConcurrentHashMap.newKeySet();

    /** The servers this freezer holds frozen now. */
    final Set<Long> frozen = ConcurrentHashMap.newKeySet();

    /** The freezer this machine offers: a cgroup v2 where one can be made here, else signals. */
    public static Freezer here() {
        Optional<Path> parent = Cgroup.ownGroup();
        Freezer freezer = parent.<Freezer>map(Cgroup::new).orElseGet(Signals::new);
        LIVE.add(freezer);
        return freezer;
    }

    /**
     * The folder under which this JVM's freezers put servers in cgroups of their own, whether made
     * yet or not ({@link Reaper} removes it if this JVM cannot); empty where there is no cgroup v2.
     */
    public static Optional<Path> groupsFolder() {
        try {
            return Cgroup.folder();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Moves this JVM into a cgroup of its own ({@code runner}) under {@link #groupsFolder}, so that
     * every process it starts from now on is born in that folder's tree: the {@link Reaper} finds
     * each one there after this JVM is killed, even one started too shortly before to have been told
     * of. Empty where no such group can be made (the reaper's watch alone then).
     */
    public static Optional<Path> holdThisJvm() {
        try {
            Optional<Path> folder = Cgroup.folder();
            if (folder.isEmpty()) {
                return Optional.empty();
            }
            Path runner = folder.get().resolve(Cgroup.RUNNER);
            Files.createDirectories(runner);
            if (!Files.exists(runner.resolve("cgroup.procs"))) {
                Files.deleteIfExists(runner);
                Files.deleteIfExists(folder.get());
                return Optional.empty();
            }
            Files.writeString(runner.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
            return Optional.of(runner);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** What it freezes with, for the console and environment.json. */
    public abstract String describe();

    /** Stops every thread of {@code pid}; returns once they are all stopped. */
    public final void freeze(long pid) throws IOException, InterruptedException {
        doFreeze(pid);
        frozen.add(pid);
    }

    /** Lets every thread of {@code pid} run again; returns once none is stopped. */
    public final void thaw(long pid) throws IOException, InterruptedException {
        doThaw(pid);
        frozen.remove(pid);
    }

    /** Lets {@code pid} run if it is frozen, before it is stopped: a frozen process cannot handle SIGTERM. */
    public void release(long pid) {
        try {
            if (frozen.contains(pid)) {
                thaw(pid);
            }
        } catch (IOException e) {
            // Gone already: nothing to thaw.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Releases everything it holds. */
    public void close() {
        for (Long pid : Set.copyOf(frozen)) {
            release(pid);
        }
        LIVE.remove(this);
    }

    /** Thaws every server any freezer holds: before a stopped run's servers are asked to exit. */
    public static void thawAll() {
        for (Freezer freezer : Set.copyOf(LIVE)) {
            freezer.close();
        }
    }

    abstract void doFreeze(long pid) throws IOException, InterruptedException;

    abstract void doThaw(long pid) throws IOException, InterruptedException;

    /** Whether every thread of {@code pid} is stopped ({@code T} in {@code /proc/PID/task/TID/stat}). */
    static boolean allThreadsStopped(long pid) throws IOException {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (var stream = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) stream::iterator) {
                String state = threadState(task);
                if (state != null && !state.equals("T") && !state.equals("t")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether no thread of {@code pid} is stopped. */
    static boolean noThreadStopped(long pid) throws IOException {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (var stream = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) stream::iterator) {
                String state = threadState(task);
                if ("T".equals(state) || "t".equals(state)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The state letter of one thread, or null when it has just ended. */
    private static String threadState(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
            // "TID (comm) S ...": the comm may hold spaces and parentheses, so read after the last ')'.
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (IOException | StringIndexOutOfBoundsException e) {
            return null;
        }
    }

    /** Waits until {@code done} holds, at most {@link #SETTLE_MS}. */
    static void await(long pid, String what, Check done) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MS);
        while (!done.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the server (pid " + pid + ") did not " + what + " within " + SETTLE_MS + " ms");
            }
            Thread.sleep(1);
        }
    }

    @FunctionalInterface
    interface Check {
        boolean holds() throws IOException;
    }

    /**
     * A cgroup v2 per server, made under the runner's own group (so any limit above it still applies)
     * and frozen with {@code cgroup.freeze}; the kernel reports in {@code cgroup.events} when every
     * thread has stopped. On a host with only cgroup v1 mounted this is not available.
     */
    static final class Cgroup extends Freezer {
        /** The group this JVM itself runs in once {@link #holdThisJvm} moved it: left to the reaper to remove. */
        static final String RUNNER = "runner";
        /** The folder, found once: this JVM moved into it must not find a new folder inside its own group. */
        private static Optional<Path> folder;
        private final Path parent;
        private final Map<Long, Path> groups = new ConcurrentHashMap<>();

        Cgroup(Path parent) {
            this.parent = parent;
        }

        /**
         * A folder under the runner's own cgroup v2 in which this process may make groups, or empty:
         * no cgroup2 mounted, not root, or a hierarchy it cannot write.
         */
        static Optional<Path> ownGroup() {
            try {
                Optional<Path> folder = folder();
                if (folder.isEmpty()) {
                    return Optional.empty();
                }
                Path runs = folder.get();
                Files.createDirectories(runs);
                if (!Files.exists(runs.resolve("cgroup.freeze"))) {
                    Files.deleteIfExists(runs);
                    return Optional.empty();
                }
                return Optional.of(runs);
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }

        /** The folder {@link #ownGroup} makes, under the runner's own cgroup v2; empty without one. */
        static synchronized Optional<Path> folder() throws IOException {
            if (folder == null) {
                folder = find();
            }
            return folder;
        }

        private static Optional<Path> find() throws IOException {
            Optional<Path> mount = cgroup2Mount();
            if (mount.isEmpty()) {
                return Optional.empty();
            }
            String path = Files.readAllLines(Path.of("/proc/self/cgroup")).stream()
                    .filter(l -> l.startsWith("0::")).map(l -> l.substring(3)).findFirst().orElse(null);
            if (path == null) {
                return Optional.empty();
            }
            Path own = mount.get().resolve(path.startsWith("/") ? path.substring(1) : path);
            return Optional.of(own.resolve("testbed-" + ProcessHandle.current().pid()));
        }

        /** Where the cgroup v2 hierarchy is mounted ({@code /proc/self/mountinfo}), if it is. */
        private static Optional<Path> cgroup2Mount() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                // "36 35 0:30 / /sys/fs/cgroup rw,... - cgroup2 cgroup2 rw": the type follows " - ".
                int dash = line.indexOf(" - ");
                if (dash > 0 && line.substring(dash + 3).startsWith("cgroup2 ")) {
                    return Optional.of(Path.of(line.split(" ")[4]));
                }
            }
            return Optional.empty();
        }

        @Override
        public String describe() {
            return "cgroup v2 cgroup.freeze";
        }

        @Override
        void doFreeze(long pid) throws IOException, InterruptedException {
            Path group = groups.get(pid);
            if (group == null) {
                group = parent.resolve("jvm-" + pid);
                Files.createDirectories(group);
                Files.writeString(group.resolve("cgroup.procs"), Long.toString(pid));
                groups.put(pid, group);
            }
            Path events = group.resolve("cgroup.events");
            Files.writeString(group.resolve("cgroup.freeze"), "1");
            await(pid, "freeze", () -> Files.readString(events).contains("frozen 1"));
        }

        @Override
        void doThaw(long pid) throws IOException, InterruptedException {
            Path group = groups.get(pid);
            if (group == null) {
                return;
            }
            Path events = group.resolve("cgroup.events");
            Files.writeString(group.resolve("cgroup.freeze"), "0");
            await(pid, "thaw", () -> Files.readString(events).contains("frozen 0"));
        }

        /**
         * Thaws {@code pid} and moves it back to the group it came from, so that its own group can go at
         * once, whether or not it still runs.
         */
        @Override
        public void release(long pid) {
            super.release(pid);
            Path group = groups.remove(pid);
            if (group == null) {
                return;
            }
            try {
                Files.writeString(parent.getParent().resolve("cgroup.procs"), Long.toString(pid));
            } catch (IOException gone) {
                // It has exited: the group is empty already.
            }
            removeWhenEmpty(group);
        }

        @Override
        public void close() {
            for (Long pid : Set.copyOf(groups.keySet())) {
                release(pid);
            }
            super.close();
            if (!Files.isDirectory(parent.resolve(RUNNER))) { // else this JVM is in it: the reaper removes it after
                removeWhenEmpty(parent);
            }
        }

        /** A group can go once its last process has; a server still exiting gets a moment. */
        private static void removeWhenEmpty(Path group) {
            for (int attempt = 0; attempt < 50; attempt++) {
                try {
                    Files.deleteIfExists(group);
                    return;
                } catch (IOException busy) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /** SIGSTOP and SIGCONT, through {@code kill}: where no cgroup can be made (cgroup v1 only, not root). */
    static final class Signals extends Freezer {
        @Override
        public String describe() {
            return "SIGSTOP/SIGCONT";
        }

        @Override
        void doFreeze(long pid) throws IOException, InterruptedException {
            signal("-STOP", pid);
            await(pid, "stop", () -> allThreadsStopped(pid));
        }

        @Override
        void doThaw(long pid) throws IOException, InterruptedException {
            signal("-CONT", pid);
            await(pid, "continue", () -> noThreadStopped(pid));
        }

        private static void signal(String signal, long pid) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).redirectErrorStream(true).start();
            String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (kill.waitFor() != 0) {
                throw new IOException("kill " + signal + " " + pid + " failed: " + out);
            }
        }
    }
}
