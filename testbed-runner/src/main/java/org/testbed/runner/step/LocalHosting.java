package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.jmeter.distributed.LoadHosts;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.fault.StoreProxy;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.host.Freezer;
import org.testbed.runner.host.LocalServer;
import org.testbed.runner.host.RunningServer;
import org.testbed.toxiproxy.ToxiproxyBuild;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantProcess;

/**
 * Variants on this machine: each on the JDK chosen here ({@link JdkChoice}), pinned to the server's
 * CPUs, with the runner's own memcached (pinned too) unless MEMCACHED_SERVERS names one, reached
 * through a Toxiproxy on memcached's CPUs by the sessions that have a store latency.
 */
final class LocalHosting implements ServerHosting {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final RunSettings settings;
    private final JdkChoice jdks;
    private Map<Variant, Path> javas;
    private Optional<Pricing> price;
    private Optional<MemcachedProcess> memcached = Optional.empty();
    private String memcachedServers;
    private Optional<StoreLatencyProxy> storeProxy = Optional.empty();
    private Freezer freezer;

    LocalHosting(RunSettings settings, JdkChoice jdks) {
        this.settings = settings;
        this.jdks = jdks;
    }

    @Override
    public Map<Variant, Path> javas() throws IOException {
        if (javas == null) {
            javas = jdks.choose();
        }
        return javas;
    }

    @Override
    public Map<Variant, Path> javasHere() throws IOException {
        return javas();
    }

    @Override
    public JdkInfo jdkBeforeStart(Path java) throws IOException {
        return jdks.info(java);
    }

    @Override
    public Optional<Pricing> price() {
        if (price == null) {
            price = RunPrice.local(settings);
        }
        return price;
    }

    @Override
    public void open(Progress progress) throws IOException, InterruptedException {
        Optional<String> given = settings.servers().memcachedServers();
        if (given.isPresent()) {
            memcachedServers = given.get();
            progress.info("using MEMCACHED_SERVERS=" + memcachedServers);
        } else {
            MemcachedProcess started = MemcachedProcess.start(0, 1024);
            memcached = Optional.of(started);
            Pinning.pin(started.pid(), settings.servers().pinning().memcachedCpus());
            memcachedServers = started.address();
            progress.info("memcached started on " + memcachedServers + " (pid " + started.pid() + ")");
        }
        if (settings.conditionSets().stream().anyMatch(Conditions::storeBehindProxy)) {
            StoreLatencyProxy proxy = StoreLatencyProxy.start(memcachedServers, settings.servers().pinning().memcachedCpus());
            storeProxy = Optional.of(proxy);
            progress.info("toxiproxy " + ToxiproxyBuild.VERSION + " started (" + proxy.api() + ", pid " + proxy.pid()
                    + ") in front of memcached, for the store latencies and the faults of its connections");
        }
    }

    /**
     * MEMCACHED_SERVERS of a session: through the proxy when it has a store latency (set now) or a
     * fault of the connections (undelayed), else memcached directly.
     */
    @Override
    public void turnOf(RunSettings session) {
        if (session.conditions().storeBehindProxy()) {
            memcachedServers(session);
        }
    }

    private String memcachedServers(RunSettings session) {
        if (!session.conditions().storeBehindProxy()) {
            return memcachedServers;
        }
        return storeProxy.orElseThrow(() -> new IllegalStateException("no store proxy was started"))
                .serversAt(session.conditions().storeLatency());
    }

    @Override
    public Optional<StoreProxy> storeProxy() {
        return storeProxy.map(StoreLatencyProxy::faultTarget);
    }

    @Override
    public EnvironmentRecord describe(EnvironmentRecord env) {
        return env;
    }

    @Override
    public String memcachedServers() {
        return memcachedServers;
    }

    @Override
    public boolean memcachedStartedByRunner() {
        return memcached.isPresent();
    }

    @Override
    public List<Long> storePids() {
        List<Long> pids = new ArrayList<>();
        memcached.ifPresent(m -> pids.add(m.pid()));
        storeProxy.ifPresent(p -> pids.add(p.pid()));
        return pids;
    }

    @Override
    public Optional<MemcachedProcess> ownMemcached() {
        return memcached;
    }

    @Override
    public void memcachedRestarted(long pid) throws IOException {
        Pinning.pin(pid, settings.servers().pinning().memcachedCpus());
    }

    @Override
    public RunningServer start(RunSettings session, Variant variant, Path java, JdkInfo jdk, Path log) throws IOException {
        Path jar = variant.jarIn(session.output().root());
        return new LocalServer(start(session, variant, command(session, variant, java, jdk, jar), log), jdk);
    }

    /**
     * Starts the variant; under {@code --tls} or {@code --gzip} a variant that will not start so, or
     * serves plain HTTP when asked for HTTPS, stops the run with one line naming it.
     */
    private static VariantProcess start(RunSettings session, Variant variant, List<String> command, Path log) throws IOException {
        Conditions conditions = session.conditions();
        String asked = String.join(" ", ServerFlags.conditions(conditions));
        VariantProcess server;
        try {
            server = VariantProcess.start(variant, command, log, START_TIMEOUT);
        } catch (IOException e) {
            if (conditions.withoutStoreLatency().equals(Conditions.PLAIN)) {
                throw e; // no server flag was asked for: the store latency is not the server's to refuse
            }
            throw new ConditionRefusedException(variant.name() + " did not start with " + asked + ": "
                    + ConditionRefusedException.reason(e.getMessage()) + " (see " + log + ")");
        }
        if (conditions.tls() && !"https".equals(server.baseUri().getScheme())) {
            server.close();
            throw new ConditionRefusedException(variant.name() + " cannot serve HTTPS: started with --tls, it listens on "
                    + server.baseUri() + "; run it without --tls");
        }
        return server;
    }

    private List<String> command(RunSettings session, Variant variant, Path java, JdkInfo jdk, Path jar) {
        List<String> command = new ArrayList<>(Pinning.prefix(session.servers().pinning().serverCpus()));
        command.add(java.toString());
        command.addAll(session.servers().jvmArgs());
        if (session.observation().flamegraph().isPresent()) {
            command.addAll(Flamegraphs.jvmArgs(jdk.feature()));
        }
        command.addAll(List.of("-jar", jar.toString(), "--mode", variant.mode(),
                "--host", listenAddress(session), "--port", "0", "--memcached-servers", memcachedServers(session)));
        command.addAll(ServerFlags.of(session));
        return command;
    }

    /**
     * Where a variant on this machine listens: loopback, or with {@code --load-hosts} this machine's
     * address as the load machines reach it (they cannot reach its loopback).
     */
    private static String listenAddress(RunSettings session) {
        return session.loadHosts().map(LoadHosts.Settings::localAddress).orElse("127.0.0.1");
    }

    @Override
    public Optional<String> started(RunningServer server) {
        return Optional.empty();
    }

    @Override
    public CompilerPlacement compilers(RunningServer server, Pinning pinning) {
        return CompilerPlacement.local(server.pid(), pinning);
    }

    @Override
    public Optional<Freezer> freezer() {
        if (freezer == null) {
            freezer = Freezer.here();
        }
        return Optional.of(freezer);
    }

    @Override
    public void close() {
        if (freezer != null) {
            freezer.close();
        }
        storeProxy.ifPresent(StoreLatencyProxy::close);
        memcached.ifPresent(MemcachedProcess::close);
    }
}
