package org.testbed.runner.step;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.runfolder.environment.EmulationSection;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.environment.JdkSection;
import org.testbed.runfolder.environment.MachineSection;
import org.testbed.runfolder.environment.NetworkPathSection;
import org.testbed.runfolder.environment.ServerMachineSection;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.host.RemoteHost;
import org.testbed.runner.host.RemoteHostSettings;
import org.testbed.variant.Variant;

/**
 * The parts of a {@code --server-host} run that concern the server's machine itself, for
 * {@link RemoteHosting}: connect to it, and record both machines and the network between them in
 * environment.json.
 */
final class RemoteRun {
    /** Until a variant is deployed the JDK is not known here: the server's machine chooses it. */
    static final JdkInfo PENDING_JDK = new JdkInfo("", "", 0, "", "chosen on the server's machine", "", "", "");
    /** Stands for the java of each variant: testbed-launch finds one on the server's machine. */
    private static final Path CHOSEN_THERE = Path.of("java");

    private RemoteRun() {
    }

    /** Every variant, each on the java the server's machine will choose. */
    static Map<Variant, Path> javas(List<Variant> variants) {
        Map<Variant, Path> javas = new LinkedHashMap<>();
        variants.forEach(v -> javas.put(v, CHOSEN_THERE));
        return javas;
    }

    static RemoteHost connect(RunSettings settings, String memcachedServers) {
        return RemoteHost.connect(settings.serverHost().orElseThrow(), settings.servers().variants(), memcachedServers,
                settings.output().root().resolve("docker").resolve("testbed-launch"));
    }

    /** For the console: the server's machine and where the load goes. */
    static String describe(RemoteHost host, RunSettings settings) {
        MachineSection m = host.machine();
        RemoteHostSettings s = settings.serverHost().orElseThrow();
        return "server machine " + host.destination() + ": " + m.host() + ", " + m.arch() + ", "
                + m.cpus() + " CPUs, " + m.cpuModel() + "; variants in " + s.directory()
                + "/<variant>, load to " + s.address() + ":" + s.appPort() + ", memcached " + host.memcachedServers()
                + (host.memcachedPid() > 0 ? " (started there)" : "");
    }

    /**
     * environment.json of a two-machine run: {@code machine} stays the load machine (where the
     * runner ran), {@code server_machine} is the server's, with the JDKs as it sees them, and
     * {@code network_path} the way between them. Recorded again at the end, when every variant has
     * been deployed there (its JDK and round trips known).
     */
    static EnvironmentRecord record(EnvironmentRecord env, RemoteHost host, RunSettings settings) {
        return onTwoMachines(env, host.destination(), host.machine(), host.jdks(), host.emulation(), host.network(),
                settings.serverHost().orElseThrow());
    }

    /** {@link #record} from what the server's machine told. */
    static EnvironmentRecord onTwoMachines(EnvironmentRecord env, String destination, MachineSection serverFacts,
                                           List<JdkSection> serverJdks, Optional<EmulationSection> emulation,
                                           NetworkPathSection network, RemoteHostSettings there) {
        ServerMachineSection server = new ServerMachineSection(serverFacts.withRole("server"),
                "not pinned by the runner: the server's machine is its own (its allowed CPUs are above)", there.directory(),
                there.address() + ":" + there.appPort(), serverJdks, emulation);
        return env.onTwoMachines(
                env.run().onTwoMachines("two machines: the server on " + destination + ", the load from this machine", destination),
                env.pinning().withServerMachine("not pinned by the runner (the server's machine is its own)"),
                env.machine().withRole("load"), server, network);
    }
}
