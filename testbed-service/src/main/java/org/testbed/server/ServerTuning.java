package org.testbed.server;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.http.MediaTypes;

/**
 * Every number a Tomcat or Jetty variant is tuned with, in one place, so that the containers are
 * set up alike and a change shows up in one diff. The container-specific classes
 * ({@code org.testbed.containers.tomcat}, {@code org.testbed.containers.jetty}) only translate these into
 * their own settings.
 */
public final class ServerTuning {
    /** The {@code Server} header of every response: no product, no version (TechEmpower's rules). */
    public static final String SERVER_HEADER = "testbed";

    /**
     * A request answered before its body was read (400, 405, 413, 415 decided from the headers)
     * still has that body on the wire. A server that closes the connection over unread bytes makes
     * the kernel send a TCP reset, which can destroy the answer before the client has read it: one
     * oversized PUT in twenty lost its 413 that way on Jetty. So a rejected body of up to this many
     * bytes is read and thrown away before the answer; a larger one is not worth the bandwidth and
     * its client may see a reset instead. Tomcat's {@code maxSwallowSize} default, set explicitly.
     */
    public static final long DISCARD_LIMIT = 2L * 1024 * 1024;

    /**
     * The listen backlog every server gets by default ({@code TESTBED_ACCEPT_QUEUE}). The servers'
     * own defaults differ (Tomcat 100, Jetty the JDK's 50, Vert.x Netty's {@code somaxconn}), and a
     * full queue drops SYNs, which their clients retry only after a second: Tomcat's 100 did so when
     * a staircase step opened hundreds of connections at once. The kernel caps this at
     * {@code net.core.somaxconn}.
     */
    public static final int ACCEPT_QUEUE = 1024;

    /**
     * The listen backlog to ask the server for: {@code TESTBED_ACCEPT_QUEUE} ({@link #ACCEPT_QUEUE}
     * unless set), or empty for 0, which leaves the server's own default in place.
     */
    public static OptionalInt acceptQueue(TestbedConfig config) {
        return config.acceptQueue() > 0 ? OptionalInt.of(config.acceptQueue()) : OptionalInt.empty();
    }

    /**
     * How much longer than its own deadline (the Memcached timeout, or the delay asked for) an
     * asynchronous request may take before the container times it out. The store always answers
     * within its timeout, so this only ever fires on a bug; it must never race the store's 503.
     */
    public static final Duration ASYNC_TIMEOUT_MARGIN = Duration.ofSeconds(5);

    /**
     * With {@code TESTBED_GZIP}: the media types compressed, which are all the contract answers
     * with (the metrics scrape is text/plain too). Bodies of at least
     * {@link TestbedConfig#GZIP_MIN_BYTES} only, and only to a client whose {@code Accept-Encoding}
     * names gzip; every server then adds {@code Vary: Accept-Encoding}. Item answers too: their
     * ETags are then weak ({@code ETags.WEAK}), because a strong ETag names the exact bytes of one
     * representation (RFC 9110, 8.8.1) and Tomcat refuses to compress an answer that has one.
     */
    public static final List<String> GZIP_MEDIA_TYPES = List.of(MediaTypes.JSON, MediaTypes.PROBLEM_JSON,
            MediaTypes.TEXT_PLAIN);

    private ServerTuning() {
    }

    /**
     * Platform threads that run request code.
     * <ul>
     *   <li>sync: {@code TESTBED_THREADS} (200), each blocked while its request waits, which is what
     *       bounds sync throughput at threads / latency (Little's law);</li>
     *   <li>async: threads only parse, route and write, never wait: two per core, at least 8;</li>
     *   <li>virtual: a virtual thread per request; the platform threads here only carry the
     *       container's own non-blocking work: two per core, at least 8.</li>
     * </ul>
     */
    public static int workerThreads(TestbedConfig config) {
        return config.mode() == Mode.SYNC ? config.threads() : Math.max(8, 2 * cores());
    }

    /**
     * Threads kept alive while idle (Tomcat's and Spring Boot's default, 10): the rest are made on
     * demand, during a run's warm-up, and start-up time and memory stay those of the container.
     */
    public static int minWorkerThreads(TestbedConfig config) {
        return Math.min(workerThreads(config), 10);
    }

    /**
     * Carrier threads of the virtual-thread scheduler: one per core, as the JDK sizes it, but at
     * least {@value #MIN_VIRTUAL_CARRIERS}. With the server pinned to one core the JDK gives it one
     * carrier, and every virtual thread then waits behind whatever holds that carrier: at 5000
     * req/s on the delay scenario, the burst of new connections at the start of a step stalled all
     * of them for about 300 ms (p99 435 ms instead of about 200), which 4 carriers on the same core
     * did not. The platform-thread modes have the same kind of floor ({@link #workerThreads}).
     */
    public static int virtualThreadCarriers() {
        return Math.max(MIN_VIRTUAL_CARRIERS, cores());
    }

    /** See {@link #virtualThreadCarriers()}. */
    public static final int MIN_VIRTUAL_CARRIERS = 4;

    /** Jetty's selector (event loop) threads: one per two cores, at least one. */
    public static int selectorThreads() {
        return Math.max(1, cores() / 2);
    }

    /** Threads accepting connections: one is plenty for keep-alive load. */
    public static int acceptorThreads() {
        return 1;
    }

    /** The async-context (or equivalent) timeout for a request that waits {@code waitMillis} at most. */
    public static long asyncTimeoutMillis(long waitMillis) {
        return waitMillis + ASYNC_TIMEOUT_MARGIN.toMillis();
    }

    /**
     * How long a connection may sit idle (waiting for its next request, or stalled mid-request)
     * before it is closed: {@code TESTBED_IDLE_TIMEOUT_MS}, 30 s by default, long enough for load
     * tools with think time between requests to keep their connections.
     */
    public static Duration idleTimeout(TestbedConfig config) {
        return Duration.ofMillis(config.idleTimeoutMs());
    }

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }
}
