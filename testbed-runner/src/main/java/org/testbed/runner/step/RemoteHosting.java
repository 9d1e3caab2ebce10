package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.host.RemoteHost;
import org.testbed.runner.host.RunningServer;
import org.testbed.runner.problem.Problems;
import org.testbed.variant.Variant;

/**
 * Variants on the server's machine of {@code --server-host}, driven from here: each deployed there
 * over ssh on the JDK that machine chooses, with memcached there (unless MEMCACHED_SERVERS names
 * one), nothing of it pinned from here. The machine is known once connected ({@link #open}).
 */
final class RemoteHosting implements ServerHosting {
    private final RunSettings settings;
    private final Problems problems;
    /** Null until {@link #open} has reached the machine. */
    private RemoteHost host;
    private Optional<Pricing> price = Optional.empty();

    RemoteHosting(RunSettings settings, Problems problems) {
        this.settings = settings;
        this.problems = problems;
    }

    @Override
    public Map<Variant, Path> javas() {
        return RemoteRun.javas(settings.servers().variants());
    }

    @Override
    public Map<Variant, Path> javasHere() {
        return Map.of();
    }

    @Override
    public JdkInfo jdkBeforeStart(Path java) {
        return RemoteRun.PENDING_JDK;
    }

    @Override
    public Optional<Pricing> price() {
        return price;
    }

    @Override
    public void open(Progress progress) {
        progress.info("connecting to " + settings.serverHost().orElseThrow().destination() + " (ssh port "
                + settings.serverHost().orElseThrow().sshPort() + ")...");
        host = RemoteRun.connect(settings, settings.servers().memcachedServers().orElse(null));
        progress.info(RemoteRun.describe(host, settings));
        price = RunPrice.remote(settings, host);
    }

    /** Both machines and the network between them, once connected. */
    @Override
    public EnvironmentRecord describe(EnvironmentRecord env) {
        return host == null ? env : RemoteRun.record(env, host, settings);
    }

    @Override
    public String memcachedServers() {
        return host.memcachedServers();
    }

    @Override
    public boolean memcachedStartedByRunner() {
        return host.memcachedPid() > 0;
    }

    @Override
    public List<Long> storePids() {
        return List.of();
    }

    @Override
    public RunningServer start(RunSettings session, Variant variant, Path java, JdkInfo jdk, Path log)
            throws IOException, InterruptedException {
        return host.start(variant, variant.jarIn(session.output().root()), jvmArgs(session), ServerFlags.of(session),
                session.conditions().tls(), log, problems);
    }

    /**
     * The JVM options of a variant there. For flame graphs, the profiler's flags of the newest JDKs,
     * which a JDK 17 there ignores: its release is known only once it is deployed.
     */
    private static List<String> jvmArgs(RunSettings session) {
        List<String> args = new ArrayList<>(session.servers().jvmArgs());
        if (session.observation().flamegraph().isPresent()) {
            args.add("-XX:+IgnoreUnrecognizedVMOptions");
            args.addAll(Flamegraphs.jvmArgs(JdkChoice.SHARED_RELEASE));
        }
        return args;
    }

    /** On the server's machine the JDK is the one it chose, known once the variant is deployed. */
    @Override
    public Optional<String> started(RunningServer server) {
        return Optional.of("   on " + server.machine().host() + " (" + server.machine().describeArch() + "), JDK "
                + server.jdk().label());
    }

    /** The server's machine is its own: its compiler threads are not moved from here. */
    @Override
    public CompilerPlacement compilers(RunningServer server, Pinning pinning) {
        return CompilerPlacement.NONE;
    }

    @Override
    public void close() {
        if (host != null) {
            host.close();
        }
    }
}
