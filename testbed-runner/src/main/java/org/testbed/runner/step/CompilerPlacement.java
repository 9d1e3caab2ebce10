package org.testbed.runner.step;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.testbed.runner.proc.CompilerThreads;

/**
 * Gives a pinned server's JIT compiler threads the load driver's CPUs too, for the warm-up only.
 * On its own core the compiler competes with every request thread for CPU time, and the kernel
 * shares a core per thread: with 64 busy request threads a compiler thread gets a sixtieth of it,
 * and spring-tomcat needed about 70 s of load to reach its steady state there. With the load
 * CPUs open to its compilers it got there in 12–15 s, to the same throughput (23 k req/s here).
 * Only the compiler threads move: what they compile does not depend on where they run, whereas
 * letting request threads spread would change the server being warmed up (its locks, its
 * caches). Before the first measured window every compiler thread is pinned back to the server's
 * CPUs ({@link #close}), so the measured server has its own CPUs and nothing else.
 *
 * <p>The JVM adds compiler threads while its queue is long, each created by another compiler
 * thread and so inheriting that thread's CPUs: the warm-up calls {@link #spread} every second to
 * catch them, and {@link #close} reads the threads twice to catch one added while it pins.
 */
final class CompilerPlacement implements AutoCloseable {
    /** For a server that is not pinned here (on another machine, or no CPUs to spare). */
    static final CompilerPlacement NONE = new CompilerPlacement(-1, "", "");

    private final long pid;
    private final String warmUpCpus;
    private final String serverCpus;
    private final Set<Long> spread = new HashSet<>();

    private CompilerPlacement(long pid, String warmUpCpus, String serverCpus) {
        this.pid = pid;
        this.warmUpCpus = warmUpCpus;
        this.serverCpus = serverCpus;
    }

    /** For a server started here as process {@code pid}: its compilers may use the server's and the load's CPUs. */
    static CompilerPlacement local(long pid, Pinning pinning) {
        if (pinning.serverCpus().isEmpty() || pinning.loadCpus().isEmpty()) {
            return NONE;
        }
        return new CompilerPlacement(pid, pinning.serverCpus() + "," + pinning.loadCpus(), pinning.serverCpus());
    }

    /** Whether the warm-up spreads compilers at all (for the console). */
    boolean active() {
        return pid > 0;
    }

    /** Opens the warm-up CPUs to compiler threads not yet moved. */
    void spread() {
        if (!active()) {
            return;
        }
        CompilerThreads now = CompilerThreads.read(pid);
        if (now == null) {
            return;
        }
        for (long tid : now.ids()) {
            if (spread.add(tid)) {
                pinQuietly(tid, warmUpCpus);
            }
        }
    }

    /** Pins every compiler thread back to the server's CPUs. */
    @Override
    public void close() {
        if (!active()) {
            return;
        }
        Set<Long> pinned = new HashSet<>();
        for (int pass = 0; pass < 2; pass++) {
            CompilerThreads now = CompilerThreads.read(pid);
            if (now == null) {
                return;
            }
            for (long tid : now.ids()) {
                if (pinned.add(tid)) {
                    pinQuietly(tid, serverCpus);
                }
            }
        }
        spread.clear();
    }

    /** A thread that ended meanwhile cannot be pinned, and needs not be. */
    private static void pinQuietly(long tid, String cpus) {
        try {
            Pinning.pinThread(tid, cpus);
        } catch (IOException e) {
            // the thread is gone (the JVM retires idle compiler threads)
        }
    }
}
