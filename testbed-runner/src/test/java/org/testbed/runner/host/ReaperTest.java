package org.testbed.runner.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A JVM killed with SIGKILL runs no hook, yet what it started goes with it: real processes, a child
 * JVM ({@link ReaperChild}) with its reaper, a sleep and a shell with a sleep of its own, killed with
 * {@code kill -9}. Its reaper also leaves once that JVM exits normally, and costs no CPU meanwhile.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaperTest {
    private static final long GONE_WITHIN_MS = 10_000;

    @Test
    void whatAJvmKilledWithSigkillStartedStopsWithIt() throws Exception {
        try (Child child = Child.start("plain")) {
            child.process.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertThat(child.process.waitFor(10, TimeUnit.SECONDS)).isTrue();
            for (ProcessHandle p : child.started) {
                assertThat(goneWithin(p)).as("%s, started by the killed JVM", p.info().commandLine().orElse("pid " + p.pid()))
                        .isTrue();
            }
            assertThat(goneWithin(child.reaper)).as("the reaper, done").isTrue();
            assertThat(child.errors()).contains("stopped 3 process(es)");
        }
    }

    @Test
    void whatAJvmStartedJustBeforeItWasKilledStopsWithItWhereACgroupHoldsIt() throws Exception {
        try (Child child = Child.start("untold")) {
            assumeTrue(child.groups != null && Files.isDirectory(child.groups.resolve("runner")),
                    "no cgroup v2 this JVM can move itself into (cgroup v1 only, or not root): the watch alone tells the reaper");
            child.process.toHandle().destroyForcibly();
            for (ProcessHandle p : child.started) {
                assertThat(goneWithin(p)).as("%s, never written to the reaper", p.info().commandLine().orElse("pid " + p.pid()))
                        .isTrue();
            }
            assertThat(goneWithin(child.reaper)).as("the reaper, done").isTrue();
            assertThat(child.groups).as("the killed JVM's cgroups, its own among them, removed").doesNotExist();
        }
    }

    @Test
    void aFrozenProcessOfAJvmKilledWithSigkillStopsToo() throws Exception {
        try (Child child = Child.start("frozen")) {
            ProcessHandle frozen = child.started.get(0);
            assertThat(state(frozen)).as("the frozen sleep").isPresent();
            boolean cgroup = child.freezer.startsWith("cgroup");
            if (cgroup) {
                assertThat(child.groups.resolve("jvm-" + frozen.pid())).as("the frozen sleep's cgroup").isDirectory();
            }
            child.process.toHandle().destroyForcibly();
            for (ProcessHandle p : child.started) {
                assertThat(goneWithin(p)).as("%s (the first frozen with %s)", p.info().commandLine().orElse("pid " + p.pid()),
                        child.freezer).isTrue();
            }
            assertThat(goneWithin(child.reaper)).as("the reaper, done").isTrue();
            if (cgroup) {
                assertThat(child.groups).as("the killed JVM's freeze cgroups, removed").doesNotExist();
            }
        }
    }

    @Test
    void theReaperOfAJvmThatExitsNormallyTakesNoCpuAndLeavesQuietly() throws Exception {
        try (Child child = Child.start("plain")) {
            long ticksPerSecond = clockTicksPerSecond();
            long before = cpuTicks(child.reaper);
            long from = System.nanoTime();
            Thread.sleep(10_000);
            double seconds = (System.nanoTime() - from) / 1e9;
            double share = (cpuTicks(child.reaper) - before) / (double) ticksPerSecond / seconds;
            assertThat(share).as("the share of a CPU the idle reaper used over %.1f s", seconds).isLessThan(0.05);

            child.say("stop");
            assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).as("the child JVM exits").isTrue();
            assertThat(goneWithin(child.reaper)).as("the reaper, after the JVM's normal exit").isTrue();
            assertThat(child.errors()).as("what the reaper said, having nothing to stop").isEmpty();
        }
    }

    @Test
    void whatAJvmLeavesRunningAtANormalExitStopsToo() throws Exception {
        try (Child child = Child.start("plain")) {
            child.say("leave");
            assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).as("the child JVM exits").isTrue();
            for (ProcessHandle p : child.started) {
                assertThat(goneWithin(p)).as("%s, left running", p.info().commandLine().orElse("pid " + p.pid())).isTrue();
            }
            assertThat(goneWithin(child.reaper)).as("the reaper, done").isTrue();
        }
    }

    /** Whether {@code p} is gone (exited, or a zombie nobody has reaped yet) within {@link #GONE_WITHIN_MS}. */
    private static boolean goneWithin(ProcessHandle p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GONE_WITHIN_MS);
        while (System.nanoTime() < deadline) {
            if (state(p).isEmpty()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** The state letter of {@code p} while it runs (a zombie does not), empty once gone; a pid used again is not {@code p}. */
    private static Optional<String> state(ProcessHandle p) {
        if (!p.isAlive()) {
            return Optional.empty();
        }
        try {
            String[] fields = afterCommand(p);
            return fields[0].equals("Z") ? Optional.empty() : Optional.of(fields[0]);
        } catch (IOException gone) {
            return Optional.empty();
        }
    }

    /** utime + stime of {@code p}, in clock ticks. */
    private static long cpuTicks(ProcessHandle p) throws IOException {
        String[] fields = afterCommand(p);
        return Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
    }

    /** The fields of {@code /proc/PID/stat} from the third (the state) on. */
    private static String[] afterCommand(ProcessHandle p) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"), StandardCharsets.US_ASCII);
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    private static long clockTicksPerSecond() throws IOException, InterruptedException {
        Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
        String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(getconf.waitFor()).isZero();
        return Long.parseLong(out);
    }

    /** A running {@link ReaperChild}, its reaper and what it started; closing leaves none of them running. */
    private static final class Child implements AutoCloseable {
        final Process process;
        final Path errors;
        final ProcessHandle reaper;
        final String freezer;
        final List<ProcessHandle> started;
        final Path groups;

        private Child(Process process, Path errors, ProcessHandle reaper, String freezer, List<ProcessHandle> started,
                Path groups) {
            this.process = process;
            this.errors = errors;
            this.reaper = reaper;
            this.freezer = freezer;
            this.started = started;
            this.groups = groups;
        }

        static Child start(String mode) throws IOException {
            Path errors = Files.createTempFile("reaper-child", ".err");
            Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), ReaperChild.class.getName(), mode)
                    .redirectError(errors.toFile()).start();
            List<ProcessHandle> seen = new ArrayList<>();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
                ProcessHandle reaper = handle(Long.parseLong(value(out.readLine(), "reaper", errors)));
                seen.add(reaper);
                String freezer = value(out.readLine(), "freezer", errors);
                for (String pid : value(out.readLine(), "pids", errors).split(" ")) {
                    seen.add(handle(Long.parseLong(pid)));
                }
                String folder = value(out.readLine(), "groups", errors);
                Path groups = folder.equals("-") ? null : Path.of(folder);
                return new Child(process, errors, reaper, freezer, List.copyOf(seen.subList(1, seen.size())), groups);
            } catch (IOException | RuntimeException e) {
                stopAll(process, seen, null);
                Files.deleteIfExists(errors);
                throw e;
            }
        }

        private static String value(String line, String key, Path errors) throws IOException {
            if (line == null || !line.startsWith(key + " ")) {
                throw new IllegalStateException("the child JVM said " + line + " where " + key + " was due; its stderr:\n"
                        + Files.readString(errors));
            }
            return line.substring(key.length() + 1);
        }

        private static ProcessHandle handle(long pid) {
            return ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("pid " + pid + " has gone already"));
        }

        void say(String line) throws IOException {
            OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            in.flush();
        }

        /** What the child JVM and its reaper wrote on stderr, once the reaper has gone (it holds that file too). */
        String errors() throws IOException {
            return Files.readString(errors, StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws IOException {
            List<ProcessHandle> all = new ArrayList<>(started);
            all.add(reaper);
            stopAll(process, all, groups);
            Files.deleteIfExists(errors);
        }

        /** Whatever a test left: the child JVM, its processes (thawed first), its reaper, its cgroups. */
        private static void stopAll(Process process, List<ProcessHandle> started, Path groups) {
            process.destroyForcibly();
            if (groups != null && Files.isDirectory(groups)) {
                try (Stream<Path> each = Files.list(groups)) {
                    each.map(g -> g.resolve("cgroup.freeze")).filter(Files::exists).forEach(f -> {
                        try {
                            Files.writeString(f, "0");
                        } catch (IOException gone) {
                            // Removed meanwhile.
                        }
                    });
                } catch (IOException gone) {
                    // Removed meanwhile.
                }
            }
            for (ProcessHandle p : started) {
                p.destroyForcibly(); // a pid used again by another process is not p: destroyForcibly checks the start time
            }
            for (ProcessHandle p : started) {
                p.onExit().completeOnTimeout(p, 5, TimeUnit.SECONDS).join();
            }
            if (groups != null && Files.isDirectory(groups)) {
                try (Stream<Path> each = Files.list(groups)) {
                    each.forEach(g -> g.toFile().delete());
                } catch (IOException gone) {
                    // Removed meanwhile.
                }
                groups.toFile().delete();
            }
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
