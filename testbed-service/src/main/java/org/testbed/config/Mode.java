package org.testbed.config;

/** How a variant handles requests: {@code TESTBED_MODE}. */
public enum Mode {
    /** A pool of platform worker threads, each blocked while its request waits. */
    SYNC,
    /** No thread held while waiting: callbacks, futures, Servlet async or an event loop. */
    ASYNC,
    /** The sync code on virtual threads (JDK 21+). */
    VIRTUAL;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
