package org.testbed.runner.fault;

import java.time.Duration;
import java.util.function.LongConsumer;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runfolder.FaultSpec;
import org.testbed.toxiproxy.Toxic;

/**
 * What a {@link FaultSpec.Kind} does to the store: begun at the fault's start, ended at its end, and
 * undone whatever happened ({@link #restore}), so that no window leaves the store hung or dead. A
 * kind that needs another part (a proxy between the variant and the store, for reset connections)
 * is one more implementation, chosen in {@link #of}.
 */
public interface StoreFault {

    /** Starts the fault; returns once it is in effect (every thread of a stopped process stopped). */
    void begin();

    /** Ends it; returns once the store is back (answering again, or listening again). */
    void end();

    /** Undoes whatever is still in effect; safe to call at any time, any number of times. */
    void restore();

    /**
     * The fault {@code spec} on the runner's own memcached.
     *
     * @param restarted told the new process id when memcached was started afresh (to pin it as before)
     * @param proxy the proxy the variants reach it through, for a fault of the connections; null when there is none
     */
    static StoreFault of(FaultSpec spec, MemcachedProcess memcached, LongConsumer restarted, StoreProxy proxy) {
        return switch (spec.kind()) {
            case STALL -> new Stall(memcached);
            case RESTART -> new Restart(memcached, restarted);
            case RESET -> {
                if (proxy == null) {
                    throw new IllegalStateException("a reset needs the variants to reach memcached through the proxy");
                }
                yield new Reset(proxy);
            }
        };
    }

    /** SIGSTOP, then SIGCONT: the store hangs with its connections open. */
    final class Stall implements StoreFault {
        private final MemcachedProcess memcached;
        private boolean stopped;

        Stall(MemcachedProcess memcached) {
            this.memcached = memcached;
        }

        @Override
        public synchronized void begin() {
            stopped = true;
            // Returns once every thread shows T: SIGSTOP is delivered to each thread in its own time.
            memcached.pause();
        }

        @Override
        public synchronized void end() {
            restore();
        }

        @Override
        public synchronized void restore() {
            if (stopped && memcached.isAlive()) {
                memcached.resume();
            }
            stopped = false;
        }
    }

    /**
     * Toxiproxy's {@code reset_peer} toxic on the proxy, at once: every connection through it, open or
     * new, is reset (TCP RST) until the toxic is removed; memcached itself never notices.
     */
    final class Reset implements StoreFault {
        private static final Toxic RESET = Toxic.resetPeer(Duration.ZERO);
        private final StoreProxy proxy;
        private boolean on;

        Reset(StoreProxy proxy) {
            this.proxy = proxy;
        }

        @Override
        public synchronized void begin() {
            on = true;
            proxy.client().addToxic(proxy.name(), RESET);
        }

        @Override
        public synchronized void end() {
            restore();
        }

        @Override
        public synchronized void restore() {
            if (on) {
                proxy.client().removeToxic(proxy.name(), RESET.name());
            }
            on = false;
        }
    }

    /** SIGKILL, then a new memcached on the same port, empty: at once, or after the fault's length. */
    final class Restart implements StoreFault {
        private final MemcachedProcess memcached;
        private final LongConsumer restarted;

        Restart(MemcachedProcess memcached, LongConsumer restarted) {
            this.memcached = memcached;
            this.restarted = restarted;
        }

        @Override
        public synchronized void begin() {
            memcached.kill();
        }

        @Override
        public synchronized void end() {
            restore();
        }

        @Override
        public synchronized void restore() {
            if (!memcached.isAlive()) {
                memcached.restart();
                restarted.accept(memcached.pid());
            }
        }
    }
}
