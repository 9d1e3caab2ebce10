package org.testbed.server;

import java.util.Set;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.service.CpuWork;
import org.testbed.store.ItemStore;
import org.testbed.store.MemcachedItemStore;

/**
 * What every variant's {@code main} does around its own server: check that the mode is offered and
 * can run on this JDK, connect the store, and print the ready line that launchers wait for.
 */
public final class ServerStartup {
    /** The feature release that made virtual threads final (JEP 444). */
    public static final int VIRTUAL_THREADS_JDK = 21;

    private ServerStartup() {
    }

    /**
     * Exits with status 2 and a clear message when {@code config.mode()} is not one of
     * {@code offered}, or is virtual on a JDK older than 21. Returns otherwise.
     */
    public static void requireRunnable(String family, TestbedConfig config, Set<Mode> offered) {
        if (!offered.contains(config.mode())) {
            fail(family + " does not offer mode '" + config.mode().label() + "'; it offers "
                    + offered.stream().map(Mode::label).sorted().toList() + ".");
        }
        if (config.mode() == Mode.VIRTUAL && Runtime.version().feature() < VIRTUAL_THREADS_JDK) {
            fail(family + " in mode 'virtual' needs JDK " + VIRTUAL_THREADS_JDK + " or newer for virtual threads;"
                    + " this is JDK " + Runtime.version() + " at " + System.getProperty("java.home")
                    + ". Run it with a newer java (e.g. JAVA_HOME=/path/to/jdk-21 or JAVA21_HOME for ./testbed).");
        }
    }

    /**
     * {@link #requireRunnable}, then, in mode virtual, sizes the virtual-thread scheduler
     * ({@link ServerTuning#virtualThreadCarriers()}) unless {@code -Djdk.virtualThreadScheduler.parallelism}
     * was given: before the first virtual thread exists, which is when the JDK reads it. With
     * {@code TESTBED_WORK_US} it calibrates the work ({@link CpuWork#calibrated()}) here too, before
     * the server's framework starts threads of its own that would slow the timings.
     */
    public static void prepare(String family, TestbedConfig config, Set<Mode> offered) {
        requireRunnable(family, config, offered);
        sizeVirtualThreadScheduler(config.mode());
        if (config.workMicros() > 0) {
            CpuWork.calibrated();
        }
    }

    /** In mode virtual, the carriers of {@link ServerTuning#virtualThreadCarriers()}, unless already set. */
    static void sizeVirtualThreadScheduler(Mode mode) {
        if (mode == Mode.VIRTUAL && System.getProperty(VIRTUAL_PARALLELISM) == null) {
            System.setProperty(VIRTUAL_PARALLELISM, Integer.toString(ServerTuning.virtualThreadCarriers()));
        }
    }

    /** The JDK's setting for the number of carrier threads of virtual threads. */
    public static final String VIRTUAL_PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

    /** The variant's name for reports: e.g. {@code spring-tomcat} in sync mode, {@code spring-tomcat-virtual}. */
    public static String variantName(String family, Mode mode, Mode unsuffixed) {
        return mode == unsuffixed ? family : family + "-" + mode.label();
    }

    /** How long start-up waits for Memcached before serving anyway (health then says 503). */
    private static final java.time.Duration STORE_CONNECT_WAIT = java.time.Duration.ofSeconds(5);

    /**
     * Connects the store and waits (bounded) for Memcached, so the first requests after the ready
     * line are not refused. A Memcached that is down does not stop the server from starting: it
     * answers 503 until Memcached is reachable, and recovers by itself.
     */
    public static ItemStore connectStore(TestbedConfig config) {
        MemcachedItemStore store = MemcachedItemStore.connect(config.memcachedServers(), config.memcachedTimeoutMs());
        if (!store.awaitConnected(STORE_CONNECT_WAIT)) {
            System.err.println("testbed: Memcached at " + config.memcachedServers() + " is not reachable yet;"
                    + " serving 503 until it is (MEMCACHED_SERVERS / --memcached-servers).");
        }
        return store;
    }

    /** Prints {@code testbed <variant> listening on http://HOST:PORT}, the line launchers wait for. */
    public static void printReady(String variant, TestbedConfig config, int boundPort) {
        String scheme = config.tls() ? "https" : "http";
        String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        System.out.println("testbed " + variant + " listening on " + scheme + "://" + host + ":" + boundPort);
        System.out.flush();
    }

    private static void fail(String message) {
        System.err.println("testbed: " + message);
        System.exit(2);
    }
}
