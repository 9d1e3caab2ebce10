package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.fault.StoreProxy;
import org.testbed.runner.host.Freezer;
import org.testbed.runner.host.RunningServer;
import org.testbed.variant.Variant;

/**
 * Where a run's variants run, chosen once ({@link ServerPlace}): on this machine ({@link LocalHosting})
 * or on the server's machine over ssh ({@link RemoteHosting}). Everything a run does differently in
 * the two cases is one of its methods, so that the run and its sessions never ask which it is.
 */
interface ServerHosting extends AutoCloseable {

    /** Every variant to run, with the java it runs on. */
    Map<Variant, Path> javas() throws IOException;

    /** The javas environment.json lists for this machine: none when the server's machine chooses them. */
    Map<Variant, Path> javasHere() throws IOException;

    /** The JDK a session of {@code java} starts with, as known before the server is started. */
    JdkInfo jdkBeforeStart(Path java) throws IOException;

    /** The run's price on the server's machine: known at once on this machine, on another once it answered; empty without one. */
    Optional<Pricing> price();

    /** Makes the servers' side ready: memcached here (or the one given), or the connection to the server's machine. */
    void open(Progress progress) throws IOException, InterruptedException;

    /** environment.json with what it knows of the server's machine so far. */
    EnvironmentRecord describe(EnvironmentRecord env);

    /** MEMCACHED_SERVERS of every variant. */
    String memcachedServers();

    /** Whether the run started that memcached itself (here or there). */
    boolean memcachedStartedByRunner();

    /**
     * The runner's memcached on this machine and, with a store latency, the proxy in front of it: the
     * store side, whose CPU counts on the load side; none when the run started no memcached here.
     */
    List<Long> storePids();

    /**
     * The runner's own memcached on this machine, which {@code --fault} may stop or restart; empty when
     * MEMCACHED_SERVERS names one or it runs on the server's machine.
     */
    default Optional<MemcachedProcess> ownMemcached() {
        return Optional.empty();
    }

    /**
     * The proxy between the variants and the runner's memcached, when a set of conditions has a fault of
     * the connections (a reset); the variants of such a session reach memcached through it.
     */
    default Optional<StoreProxy> storeProxy() {
        return Optional.empty();
    }

    /** The runner's memcached was started afresh as {@code pid} (a restart fault): pinned as the first was. */
    default void memcachedRestarted(long pid) throws IOException {
    }

    /** Starts {@code variant} on {@code java}, under one session's {@code settings}; its start is logged to {@code log}. */
    RunningServer start(RunSettings settings, Variant variant, Path java, JdkInfo jdk, Path log)
            throws IOException, InterruptedException;

    /** A started server's line for the console, when where it runs is news (another machine, the JDK chosen there). */
    Optional<String> started(RunningServer server);

    /** Where the server's JIT compiler threads may run during a warm-up. */
    CompilerPlacement compilers(RunningServer server, Pinning pinning);

    /**
     * What stops a started server between its turns and lets it go on ({@link InterleavedPass}); empty where
     * the run cannot freeze its servers (on the server's own machine), and the variants then run one after
     * another.
     */
    default Optional<Freezer> freezer() {
        return Optional.empty();
    }

    /**
     * A server of {@code session} is about to be measured while the servers of other sessions are kept
     * frozen ({@link InterleavedPass}): what the run shares between sessions is set for it again, i.e.
     * the store latency of the one proxy every session behind it goes through.
     */
    default void turnOf(RunSettings session) {
    }

    /** Stops what {@link #open} started. */
    @Override
    void close();
}
