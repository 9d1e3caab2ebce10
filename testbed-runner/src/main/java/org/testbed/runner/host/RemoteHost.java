package org.testbed.runner.host;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.testbed.runfolder.environment.EmulationSection;
import org.testbed.runfolder.environment.JdkSection;
import org.testbed.runfolder.environment.MachineSection;
import org.testbed.runfolder.environment.NetworkPathSection;
import org.testbed.runfolder.environment.RoundTrips;
import org.testbed.runner.deploy.Deployer;
import org.testbed.runner.deploy.Deployment;
import org.testbed.runner.deploy.RemoteSettings;
import org.testbed.runner.env.Environment;
import org.testbed.runner.env.JdkInfo;
import org.testbed.ssh.ConnectionLostException;
import org.testbed.ssh.RemoteResult;
import org.testbed.runner.problem.Problems;
import org.testbed.ssh.SshException;
import org.testbed.ssh.SshTarget;
import org.testbed.variant.Variant;

/**
 * The server's machine of a {@code --server-host} run: each variant is deployed there with
 * {@code deploy}'s code ({@link Deployer}: the jar copied once per sha256, started with nohup,
 * health waited for), read there over ssh ({@link RemoteServer}), and stopped. The run's memcached
 * runs there too, on its loopback, unless MEMCACHED_SERVERS names others.
 */
public final class RemoteHost implements AutoCloseable {
    /** How long a deployed variant may take to answer health there. */
    private static final int HEALTH_SECONDS = 120;
    /** Random ports tried for the run's memcached there. */
    private static final int MEMCACHED_PORT_ATTEMPTS = 3;

    private final RemoteHostSettings settings;
    private final ServerMachine machine;
    private final Path launcher;
    private final Map<String, JdkInfo> jdks = new LinkedHashMap<>();
    /** The first server whose JVM ran under an emulator there (environment.json's server_machine.emulation). */
    private Optional<EmulationSection> emulation = Optional.empty();
    /** The health round trips to each variant started there, by variant, in the order they started. */
    private final Map<String, RoundTrips> roundTrips = new LinkedHashMap<>();
    private final String memcachedServers;
    private MachineSection facts;
    private String loadAddressSeenThere;
    private String serverInterface;
    private String loadInterface;

    private RemoteHost(RemoteHostSettings settings, ServerMachine machine, Path launcher, String memcachedServers) {
        this.settings = settings;
        this.machine = machine;
        this.launcher = launcher;
        this.memcachedServers = memcachedServers;
    }

    /**
     * Connects, opens the run's session (starting memcached there unless {@code memcachedServers}
     * is given) and reads the machine. Fails with ssh's reason in one line.
     *
     * @param launcher {@code docker/testbed-launch}, copied next to every variant
     */
    public static RemoteHost connect(RemoteHostSettings settings, List<Variant> variants, String memcachedServers,
                                     Path launcher) {
        SshTarget.requireClient();
        SshTarget target = SshTarget.of(settings.destination(), settings.sshPort(), settings.identity(), settings.sshOptions());
        List<String> directories = variants.stream().map(v -> settings.directoryOf(v.name())).toList();
        int port = 0;
        ServerMachine machine = null;
        // A random port for the run's memcached there: another one when it is taken.
        for (int attempt = 1; machine == null; attempt++) {
            port = memcachedServers == null ? ThreadLocalRandom.current().nextInt(21000, 29000) : 0;
            try {
                machine = ServerMachine.connect(target, port, directories);
            } catch (ServerMachine.PortTakenException e) {
                if (attempt == MEMCACHED_PORT_ATTEMPTS) {
                    throw new SshException(e.getMessage());
                }
            }
        }
        RemoteHost host = new RemoteHost(settings, machine, launcher,
                memcachedServers == null ? "127.0.0.1:" + port : memcachedServers);
        try {
            RemoteResult facts = machine.script(MachineFacts.SCRIPT);
            Map<String, String> sections = MachineFacts.sections(facts.stdout());
            host.facts = MachineFacts.machine(sections);
            host.loadAddressSeenThere = sections.getOrDefault("load_machine_address", "");
            host.serverInterface = sections.getOrDefault("interface", "unknown");
            host.loadInterface = NetworkPath.localInterface(settings.address());
            return host;
        } catch (RuntimeException e) {
            host.close();
            throw e;
        }
    }

    /** MEMCACHED_SERVERS as the variants there see them. */
    public String memcachedServers() {
        return memcachedServers;
    }

    /** The pid of the memcached the run started there, or -1. */
    public long memcachedPid() {
        return machine.memcachedPid();
    }

    public String destination() {
        return machine.destination();
    }

    /** The server's machine, as environment.json describes a machine. */
    public MachineSection machine() {
        return facts;
    }

    /** The network between the two machines: interfaces and MTUs, and the health round trips of each variant so far. */
    public NetworkPathSection network() {
        return new NetworkPathSection(loadAddressSeenThere, serverInterface, loadInterface,
                Collections.unmodifiableMap(new LinkedHashMap<>(roundTrips)));
    }

    /** The JDKs the variants ran on there so far, as that machine sees them. */
    public List<JdkSection> jdks() {
        return jdks.values().stream().map(Environment::jdk).toList();
    }

    /**
     * Deploys {@code variant} there, waits for its health, times the network path to it, and
     * returns it running. A variant that does not start is an {@link IOException} naming the log,
     * into which the end of its remote log is copied; a lost machine is a {@link ConnectionLostException}.
     *
     * @param jvmArgs the JVM's options (TESTBED_JAVA_OPTS there)
     * @param serverFlags the server's flags ({@code --threads}, the conditions)
     * @param log the local log of this variant's start
     * @param problems where a server that could not be stopped there at the end is reported
     */
    public RunningServer start(Variant variant, Path jar, List<String> jvmArgs, List<String> serverFlags, boolean tls,
                               Path log, Problems problems) throws IOException, InterruptedException {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put("TESTBED_JAVA_OPTS", String.join(" ", jvmArgs));
        RemoteSettings remote = RemoteSettings.of(environment, memcachedServers, settings.appPort(), "0.0.0.0", settings.java(),
                serverFlags);
        Deployment deployment = new Deployment(variant, jar, launcher, remote, "nohup", HEALTH_SECONDS);
        String targetSays;
        Deployer deployer;
        // The deploy's progress and, when the variant does not start, the end of its remote log go to its local log.
        try (PrintStream progress = new PrintStream(Files.newOutputStream(log, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND), true, StandardCharsets.UTF_8)) {
            deployer = new Deployer(machine.target(), settings.directoryOf(variant.name()), progress);
            try {
                targetSays = deployer.deploy(deployment, "./testbed deploy " + variant.name() + " --host " + destination());
            } catch (SshException e) {
                throw failedStart(variant, deployer, log, e);
            }
        }
        RemoteServer server = null;
        try {
            RemoteResult pid = machine.run(ServerMachine.SHORT, "cat", deployer.directory() + "/testbed.pid");
            long serverPid = Long.parseLong(pid.stdout().strip());
            JdkInfo jdk = jdk(javaOf(targetSays), jvmArgs);
            Optional<EmulationSection> emulated = emulation(serverPid, jdk);
            if (emulation.isEmpty()) {
                emulation = emulated;
            }
            server = new RemoteServer(machine, deployer, serverPid, baseUri(tls), jdk, label(emulated), problems);
            List<Double> rtt = NetworkPath.pingHealth(server.baseUri());
            roundTrips.put(variant.name(), NetworkPath.describe(rtt));
            return server;
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            } else {
                stopQuietly(deployer);
            }
            if (e instanceof NumberFormatException) {
                throw new IOException("no pid of " + variant.name() + " in " + deployer.directory() + "/testbed.pid on "
                        + destination());
            }
            if (e instanceof IOException io) {
                throw new IOException(variant.name() + " on " + destination() + " is not reachable from here at "
                        + baseUri(tls) + ": " + io.getMessage() + " (does --server-address name this machine's way to it?)");
            }
            throw e;
        }
    }

    /** A deploy that failed: the machine lost, or the variant did not start (the end of its remote log copied into {@code log}). */
    private IOException failedStart(Variant variant, Deployer deployer, Path log, SshException e) {
        // The launcher's hints name deploy's option; run's is --server-java.
        String why = e.getMessage().replace("--java", "--server-java");
        if (!reachable()) {
            throw new ConnectionLostException("lost the connection to " + destination() + " while deploying " + variant.name()
                    + ": " + why);
        }
        copyRemoteLog(deployer, log);
        stopQuietly(deployer);
        return new IOException(why.replaceAll(" \\(its log is above;.*", "") + " (the end of its log is in " + log + ")");
    }

    private static void stopQuietly(Deployer deployer) {
        try {
            deployer.stop();
        } catch (RuntimeException e) {
            // the lifeline stops it when the run's session ends
        }
    }

    /** The server's machine as results.csv names it: by the arch of the server's code when that was emulated. */
    MachineLabel label(Optional<EmulationSection> emulated) {
        return new MachineLabel(facts.host(), emulated.map(EmulationSection::jvmArch).orElse(facts.arch()), facts.cpuModel(),
                facts.cpus(), emulated);
    }

    /** Whether a server's JVM ran under an emulator there, as the first server that did records it; empty when native. */
    public Optional<EmulationSection> emulation() {
        return emulation;
    }

    /** Whether the JVM of the server {@code pid} runs under an emulator there: its arch against the machine's, and its executable. */
    private Optional<EmulationSection> emulation(long pid, JdkInfo jdk) {
        if (jdk.osArch().isEmpty() || jdk.osArch().equals(facts.arch())) {
            return Optional.empty();
        }
        RemoteResult exe = machine.run(ServerMachine.SHORT, "readlink", "/proc/" + pid + "/exe");
        return JvmEmulation.of(facts.arch(), jdk.osArch(), exe.ok() ? exe.stdout() : "");
    }

    private URI baseUri(boolean tls) {
        String address = settings.address().contains(":") ? "[" + settings.address() + "]" : settings.address();
        return URI.create((tls ? "https" : "http") + "://" + address + ":" + settings.appPort());
    }

    /** The java the launcher chose: {@code java=PATH} of its check line. */
    private static String javaOf(String targetSays) {
        for (String word : targetSays.split("\\s+")) {
            if (word.startsWith("java=")) {
                return word.substring("java=".length());
            }
        }
        return "java";
    }

    /** That java, with the run's JVM options, as {@code JdkInfo} probes a local one: vendor, version, flags. */
    private JdkInfo jdk(String java, List<String> jvmArgs) {
        return jdks.computeIfAbsent(java, j -> {
            List<String> words = new ArrayList<>(List.of(j));
            words.addAll(jvmArgs);
            words.addAll(List.of("-XshowSettings:properties", "-XX:+PrintCommandLineFlags", "-version"));
            RemoteResult probe = machine.run(ServerMachine.SHORT, words.toArray(String[]::new));
            return JdkInfo.parse(j + " on " + destination(), probe.stdout() + probe.stderr());
        });
    }

    private boolean reachable() {
        try {
            machine.target().checkConnection();
            return true;
        } catch (SshException e) {
            return false;
        }
    }

    private static void copyRemoteLog(Deployer deployer, Path log) {
        try (OutputStream out = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            RemoteResult tail = deployer.logs(40);
            out.write(("--- the end of its log on the server's machine:\n" + tail.output() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            // the message already names what failed; the log's tail is a help, not a must
        }
    }

    /** Ends the run's session there: whatever the run deployed is stopped, and its memcached. */
    @Override
    public void close() {
        machine.close();
    }
}
