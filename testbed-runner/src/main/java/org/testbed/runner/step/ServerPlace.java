package org.testbed.runner.step;

import java.util.Optional;
import org.testbed.runner.host.RemoteHostSettings;
import org.testbed.runner.problem.Problems;
import org.testbed.runner.setup.ToolInstaller;

/**
 * Whether a run's variants run on this machine or on another one ({@code --server-host}), decided
 * once from its settings; what that changes before the run (which CPUs are pinned, what is checked
 * and installed here) is decided here, and during the run by the {@link ServerHosting} it gives.
 */
public enum ServerPlace {
    /** Every variant on this machine, pinned to the server's CPUs, with the runner's memcached. */
    THIS_MACHINE {
        @Override
        public Pinning pinning(String serverCpus, String loadCpus, String memcachedCpus) {
            return Pinning.decide(serverCpus, loadCpus, memcachedCpus, Pinning.allowedCpus(), Pinning.tasksetAvailable());
        }

        /**
         * A prices file without this machine, or a memcached (or with a store latency, a toxiproxy) that
         * cannot be installed, stops the run before it starts.
         */
        @Override
        public void prepare(RunSettings settings) {
            RunPrice.local(settings);
            if (settings.servers().memcachedServers().isEmpty()) {
                new ToolInstaller(System.err).ensureMemcached();
            }
            if (settings.storeLatencies()) {
                new ToolInstaller(System.err).ensureToxiproxy();
            }
        }

        @Override
        ServerHosting hosting(RunSettings settings, JdkChoice jdks, Problems problems) {
            return new LocalHosting(settings, jdks);
        }
    },

    /** Every variant on the server's machine, which is its own: only the load driver is pinned here. */
    SERVER_HOST {
        @Override
        public Pinning pinning(String serverCpus, String loadCpus, String memcachedCpus) {
            return Pinning.decide("", loadCpus == null ? "" : loadCpus, "", Pinning.allowedCpus(), Pinning.tasksetAvailable());
        }

        /** Its price and its memcached are known once it has been reached. */
        @Override
        public void prepare(RunSettings settings) {
        }

        @Override
        ServerHosting hosting(RunSettings settings, JdkChoice jdks, Problems problems) {
            return new RemoteHosting(settings, problems);
        }
    };

    public static ServerPlace of(Optional<RemoteHostSettings> serverHost) {
        return serverHost.isPresent() ? SERVER_HOST : THIS_MACHINE;
    }

    /** The CPUs of the server, the load driver and memcached, from {@code --server-cpus} and the others (each may be null). */
    public abstract Pinning pinning(String serverCpus, String loadCpus, String memcachedCpus);

    /** What is checked and installed here before the run starts. */
    public abstract void prepare(RunSettings settings);

    /** The run's servers, for one run. */
    abstract ServerHosting hosting(RunSettings settings, JdkChoice jdks, Problems problems);
}
