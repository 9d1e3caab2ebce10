package org.testbed.runner.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A JVM that starts its reaper as a run does, then a {@code sleep 300} and a shell with a
 * {@code sleep 300} of its own; with {@code frozen}, the first sleep frozen by the {@link Freezer}; with
 * {@code untold}, the three never written to the reaper (as when killed within the watch's second).
 * It prints the reaper's pid, the freezer, the three pids, the folder of its freeze cgroups, and waits for a line on stdin:
 * {@code stop} stops the three and exits, {@code leave} exits leaving them; ReaperTest may kill it
 * instead.
 */
final class ReaperChild {
    private ReaperChild() {
    }

    public static void main(String[] args) throws Exception {
        Reaper reaper = Reaper.start().orElseThrow(() -> new IllegalStateException("no reaper on this machine"));
        boolean untold = args.length > 0 && args[0].equals("untold");
        if (untold) {
            reaper.stopTelling(); // killed before the watch could write them: only the cgroup holds them
        }
        Process sleep = new ProcessBuilder("sleep", "300").start();
        Process shell = new ProcessBuilder("sh", "-c", "sleep 300 & wait").start();
        ProcessHandle grandchild = grandchildOf(shell);
        String freezer = "-";
        if (args.length > 0 && args[0].equals("frozen")) {
            Freezer frozen = Freezer.here();
            frozen.freeze(sleep.pid());
            freezer = frozen.describe();
        }
        if (!untold) {
            reaper.update(); // rather than within the second the watching thread takes
        }
        System.out.println("reaper " + reaper.pid());
        System.out.println("freezer " + freezer);
        System.out.println("pids " + sleep.pid() + " " + shell.pid() + " " + grandchild.pid());
        System.out.println("groups " + Freezer.groupsFolder().map(Object::toString).orElse("-"));
        System.out.flush();

        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)).readLine();
        if ("stop".equals(line)) {
            for (ProcessHandle p : List.of(grandchild, shell.toHandle(), sleep.toHandle())) {
                p.destroy();
                p.onExit().get(10, TimeUnit.SECONDS);
            }
        }
    }

    private static ProcessHandle grandchildOf(Process shell) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> child = shell.children().findFirst();
            if (child.isPresent()) {
                return child.get();
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("sh -c 'sleep 300 & wait' started no sleep");
    }
}
