package org.testbed.runner.step;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.testbed.runner.host.Freezer;

/**
 * What a run started must not outlive it. A run stopped from outside (SIGTERM from a CI job's
 * timeout, {@code kill}, a closed terminal) exits through the JVM's shutdown hooks without
 * unwinding: the {@code try}-with-resources around its server, memcached, perf and wrk never close
 * them, and they would go on running, holding their ports and CPUs, under the next run's
 * measurements. Ctrl-C in a terminal reaches them with the runner, but a signal to the runner alone
 * does not. This hook stops every process the run started, directly or not.
 */
final class LeftBehind {
    private static final long GRACE_MS = 5_000;

    private LeftBehind() {
    }

    /** Installs the hook for the rest of this JVM's life. */
    static void stopOnExit() {
        Runtime.getRuntime().addShutdownHook(new Thread(LeftBehind::stopDescendants, "run-cleanup"));
    }

    /** Asks every descendant to stop (SIGTERM), then kills those still alive after the grace period. */
    static void stopDescendants() {
        // A server frozen between its turns (Freezer) would hold SIGTERM until the grace period ran out.
        Freezer.thawAll();
        List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
        children.forEach(ProcessHandle::destroy);
        long deadline = System.currentTimeMillis() + GRACE_MS;
        for (ProcessHandle child : children) {
            try {
                child.onExit().get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (Exception stillAlive) {
                child.destroyForcibly();
            }
        }
    }
}
