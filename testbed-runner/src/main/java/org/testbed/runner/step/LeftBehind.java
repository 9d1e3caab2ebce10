package org.testbed.runner.step;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.testbed.runner.host.Freezer;
import org.testbed.runner.host.Reaper;

/**
 * What a run started must not outlive it. A run stopped from outside (SIGTERM from a CI job's
 * timeout, {@code kill}, a closed terminal) exits through the JVM's shutdown hooks without
 * unwinding: the {@code try}-with-resources around its server, memcached, perf and wrk never close
 * them, and they would go on running, holding their ports and CPUs, under the next run's
 * measurements. Ctrl-C in a terminal reaches them with the runner, but a signal to the runner alone
 * does not. This hook stops every process the run started, directly or not. SIGKILL runs no hook:
 * the {@link Reaper} started with it stops them then.
 */
final class LeftBehind {
    private static final long GRACE_MS = 5_000;

    private LeftBehind() {
    }

    /** Installs the hook for the rest of this JVM's life, and the reaper for the end that runs none. */
    static void stopOnExit() {
        Reaper.start();
        Runtime.getRuntime().addShutdownHook(new Thread(LeftBehind::stopDescendants, "run-cleanup"));
    }

    /** Asks every descendant to stop (SIGTERM), then kills those still alive after the grace period. */
    static void stopDescendants() {
        // A server frozen between its turns (Freezer) would hold SIGTERM until the grace period ran out.
        Freezer.thawAll();
        // Not the reaper: it ignores SIGTERM, and killed it could not stop what a SIGKILL during this
        // hook would leave. It exits after this JVM by itself, finding them all gone.
        List<ProcessHandle> children = ProcessHandle.current().descendants().filter(p -> !Reaper.isReaper(p)).toList();
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
