package org.testbed.jmeter.distributed;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.testbed.driver.proc.ProcStat;
import org.testbed.jmeter.JMeterDriver;
import org.testbed.jmeter.JMeterHome;
import org.testbed.jmeter.LoadEngines;
import org.testbed.ssh.ConnectionLostException;
import org.testbed.ssh.RemoteResult;
import org.testbed.ssh.SharedConnection;
import org.testbed.ssh.SshException;
import org.testbed.ssh.SshTarget;

/**
 * The load machines of {@code run --driver jmeter --load-hosts}: JMeter's distributed mode over
 * testbed-ssh. Each machine gets one ssh connection for the run ({@link SharedConnection}, whose
 * lifeline removes the run's folder there however the run ends) and a copy of the JMeter home this
 * repository's build lays out from Maven artifacts; for each step a {@code jmeter-server} of its own
 * there, started in an ssh session that kills it when the session ends (closed by the runner, or
 * lost with the machine or the runner), with the step's lanes of its users copied beside it.
 *
 * <p>Fixed RMI ports, so that the engines work through a firewall or a namespace's veth: each
 * engine's registry on {@code --load-rmi-port} and its engine object on the next port; the
 * controller's callback for the samples on {@code --load-rmi-port + 2} here, at the address the
 * machines reach this one by ({@code --local-address}, by default the source address of the route
 * to the first of them, found by the caller). RMI runs without TLS ({@code server.rmi.ssl.disable}): the machines are the
 * run's own, on the network the load crosses anyway.
 */
public final class LoadHosts implements LoadEngines, AutoCloseable {
    /** What jmeter-server prints once it listens for a controller. */
    private static final String LISTENING = "Created remote object";
    /** How long a jmeter-server may take to listen, and a step's files to be copied. */
    private static final Duration START = Duration.ofSeconds(60);
    /** The JMeter home's copy there, under each machine's run folder. */
    private static final String HOME = "jmeter";
    /** A file that marks a directory as the run's alone: the lifeline's end removes it whole. */
    static final String REMOVE_AT_END = "testbed-remove-at-end";
    /**
     * The remote side of each machine's lifeline. Arguments: the run's folders there; those marked
     * {@link #REMOVE_AT_END} are removed when the lifeline's input ends.
     */
    static final String LIFELINE = String.join("\n",
            "trap 'for d in \"$@\"; do [ -f \"$d/" + REMOVE_AT_END + "\" ] && rm -rf \"$d\"; done; exit 0' EXIT HUP TERM INT PIPE",
            "echo \"" + SharedConnection.READY + "\"",
            "cat >/dev/null",
            "");
    /**
     * The remote side of a step's engine session: starts the engine (its output into the session),
     * says its pid, and kills it when the session's input ends, whatever ended it.
     */
    private static final String ENGINE = String.join("\n",
            "cd \"$1\" || exit 3; shift",
            "\"$@\" </dev/null 2>&1 &",
            "pid=$!",
            "echo \"engine: pid $pid\"",
            "trap 'kill \"$pid\" 2>/dev/null; sleep 1; kill -9 \"$pid\" 2>/dev/null; wait \"$pid\" 2>/dev/null; exit 0' EXIT HUP TERM INT PIPE",
            "cat >/dev/null",
            "");

    /**
     * @param destinations the machines, {@code USER@HOST} each
     * @param directory the run's folder there (relative to the login's home unless absolute): each machine's is
     *                  {@code DIRECTORY/<run id>-<N>}, removed at the end
     * @param localAddress this machine's address as the load machines reach it (the caller's to find: it is
     *                     the run's, where its variants listen for the load machines too)
     * @param rmiPort the first of the fixed RMI ports (see the class comment)
     * @param java the java launcher there
     */
    public record Settings(List<String> destinations, int sshPort, Path identity, List<String> sshOptions, String directory,
                           String localAddress, int rmiPort, String java) {
        public Settings {
            Objects.requireNonNull(localAddress, "localAddress");
        }
    }

    private final List<Machine> machines;
    private final String localAddress;
    private final int rmiPort;
    private final String java;
    private int steps;

    private record Machine(String destination, String address, SharedConnection ssh, String directory, int cpus, long clockTicks) {
    }

    private LoadHosts(List<Machine> machines, String localAddress, int rmiPort, String java) {
        this.machines = machines;
        this.localAddress = localAddress;
        this.rmiPort = rmiPort;
        this.java = java;
    }

    /**
     * Connects to every machine and copies the JMeter home there. Fails with ssh's reason in one
     * line; whatever was connected is closed again.
     */
    public static LoadHosts connect(Settings settings, JMeterHome home, String runId, Path work, Consumer<String> progress)
            throws IOException, InterruptedException {
        SshTarget.requireClient();
        home.require();
        List<Machine> machines = new ArrayList<>();
        LoadHosts hosts = null;
        Path archive = work.resolve("jmeter-home.tar");
        try {
            Files.createDirectories(work);
            tar(home.dir(), archive);
            for (int i = 0; i < settings.destinations().size(); i++) {
                String destination = settings.destinations().get(i);
                SshTarget target = SshTarget.of(destination, settings.sshPort(), settings.identity(), settings.sshOptions());
                String directory = settings.directory() + "/" + runId + "-" + (i + 1);
                progress.accept("load host " + (i + 1) + ": connecting to " + destination + ", copying JMeter to " + directory
                        + "...");
                SharedConnection ssh = SharedConnection.open(target, LIFELINE, List.of(directory));
                Machine machine;
                try {
                    RemoteResult facts = ssh.script("mkdir -p \"$1\" && touch \"$1/" + REMOVE_AT_END
                            + "\" && nproc && getconf CLK_TCK", directory);
                    String[] lines = facts.stdout().strip().split("\\s+");
                    if (facts.exitCode() != 0 || lines.length < 2) {
                        throw new SshException("could not create " + directory + " on " + destination + ": "
                                + facts.output().strip());
                    }
                    machine = new Machine(destination, address(target.host()), ssh, directory, Integer.parseInt(lines[0]),
                            Long.parseLong(lines[1]));
                    machines.add(machine);
                } catch (RuntimeException e) {
                    ssh.close();
                    throw e;
                }
                copyAndUnpack(machine, archive, directory + "/" + HOME);
            }
            hosts = new LoadHosts(machines, settings.localAddress(), settings.rmiPort(), settings.java());
            return hosts;
        } finally {
            Files.deleteIfExists(archive); // 70 MB of jars, copied: not the run folder's
            if (hosts == null) {
                machines.forEach(m -> m.ssh().close());
            }
        }
    }

    @Override
    public List<String> hosts() {
        return machines.stream().map(Machine::destination).toList();
    }

    /** This machine's address as the load machines reach it. */
    public String localAddress() {
        return localAddress;
    }

    /** Each machine's CPUs, in order. */
    public List<Integer> cpus() {
        return machines.stream().map(Machine::cpus).toList();
    }

    @Override
    public Running start(Path properties, List<Path> lanes, List<Integer> users) throws IOException, InterruptedException {
        int step = ++steps;
        List<Engine> engines = new ArrayList<>();
        try {
            for (int i = 0; i < machines.size(); i++) {
                Machine m = machines.get(i);
                String dir = m.directory() + "/step-" + step;
                Path archive = lanes.get(i).resolveSibling(lanes.get(i).getFileName() + ".tar");
                tar(lanes.get(i), archive);
                copyAndUnpack(m, archive, dir + "/lanes");
                Files.delete(archive);
                check(m, m.ssh().target().copyAs(START, properties, dir + "/step.properties"), "copy the step's properties");
                List<String> words = new ArrayList<>(List.of("bash", "-c", ENGINE, "engine", dir, java));
                words.addAll(JMeterDriver.JVM_OPTIONS);
                words.addAll(List.of("-Djava.rmi.server.hostname=" + m.address(), "-jar", m.directory() + "/" + HOME + "/"
                                + JMeterHome.LAUNCHER, "-s", "-j", dir + "/jmeter-server.log", "-q", dir + "/step.properties",
                        "-Jserver_port=" + rmiPort, "-Jserver.rmi.localport=" + (rmiPort + 1),
                        "-J" + JMeterDriver.ENGINE_PROPERTY + "=" + (i + 1), "-J" + JMeterDriver.LANES_PROPERTY + "=" + dir + "/lanes",
                        "-J" + JMeterDriver.USERS_PROPERTY + "=" + users.get(i)));
                engines.add(Engine.start(m, dir, words));
            }
            return new Running(engines);
        } catch (ConnectionLostException e) {
            engines.forEach(Engine::stop);
            throw asLoadHost(e);
        } catch (IOException | RuntimeException e) {
            engines.forEach(Engine::stop);
            throw e;
        }
    }

    /** Ends every machine's session: its lifeline removes the run's folder there. */
    @Override
    public void close() {
        machines.forEach(m -> m.ssh().close());
    }

    /** One machine's engine for a step: its ssh session, its pid there, its CPU when it listened. */
    private static final class Engine {
        private final Machine machine;
        private final String directory;
        private final Process session;
        private final Deque<String> tail = new ArrayDeque<>();
        private volatile boolean stopping;
        private long pid;
        private ProcStat before;
        private long beforeNanos;

        private Engine(Machine machine, String directory, Process session) {
            this.machine = machine;
            this.directory = directory;
            this.session = session;
        }

        static Engine start(Machine m, String directory, List<String> words) throws IOException, InterruptedException {
            List<String> command = m.ssh().target().sessionCommand(words.toArray(String[]::new));
            Process session = new ProcessBuilder(command).redirectErrorStream(true).start();
            Engine engine = new Engine(m, directory, session);
            CompletableFuture<Long> pid = new CompletableFuture<>();
            CompletableFuture<Boolean> listening = new CompletableFuture<>();
            Thread reader = new Thread(() -> engine.read(pid, listening), "jmeter-server " + m.destination());
            reader.setDaemon(true);
            reader.start();
            try {
                engine.pid = pid.get(START.toSeconds(), TimeUnit.SECONDS);
                if (!listening.get(START.toSeconds(), TimeUnit.SECONDS)) {
                    throw engine.failure("did not start");
                }
                engine.before = engine.stat();
                engine.beforeNanos = System.nanoTime();
                return engine;
            } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                engine.stop();
                throw engine.failure("did not listen within " + START.toSeconds() + " s");
            } catch (RuntimeException | IOException e) {
                engine.stop();
                throw e;
            }
        }

        private void read(CompletableFuture<Long> pid, CompletableFuture<Boolean> listening) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(session.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("engine: pid ")) {
                        pid.complete(Long.parseLong(line.substring("engine: pid ".length()).strip()));
                        continue;
                    }
                    synchronized (tail) {
                        tail.addLast(line);
                        if (tail.size() > 30) {
                            tail.removeFirst();
                        }
                    }
                    if (line.contains(LISTENING)) {
                        listening.complete(true);
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // the session ended
            }
            pid.complete(-1L);
            listening.complete(false);
        }

        /** The engine's machine lost, or its engine gone, while the step ran: null while it runs. */
        RuntimeException lost() {
            if (session.isAlive() || stopping) {
                return null;
            }
            return failure("exited during the step");
        }

        double cpuMs() throws IOException {
            ProcStat after = stat();
            return (after.minus(before).utime() + after.minus(before).stime()) * 1000.0 / machine.clockTicks();
        }

        private ProcStat stat() throws IOException {
            RemoteResult stat = machine.ssh().run(SharedConnection.SHORT, "cat", "/proc/" + pid + "/stat");
            if (stat.exitCode() != 0) {
                throw new IOException("the JMeter engine on " + machine.destination() + " (pid " + pid + ") is gone: "
                        + stat.stderr().strip());
            }
            return ProcStat.parse(stat.stdout());
        }

        /** The engine failed: its machine lost when it no longer answers, else what it printed last. */
        private RuntimeException failure(String what) {
            try {
                machine.ssh().target().checkConnection();
            } catch (SshException e) {
                return new ConnectionLostException("lost the connection to load host " + machine.destination() + " ("
                        + e.getMessage() + ")");
            }
            synchronized (tail) {
                return new IllegalStateException("the JMeter engine on load host " + machine.destination() + " " + what
                        + "; its last lines:\n" + String.join("\n", tail));
            }
        }

        /** Ends the session (its remote side kills the engine) and removes the step's files there. */
        void stop() {
            stopping = true;
            try {
                session.getOutputStream().close();
                if (!session.waitFor(15, TimeUnit.SECONDS)) {
                    session.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
                machine.ssh().run(SharedConnection.SHORT, "rm", "-rf", directory);
            } catch (IOException | RuntimeException e) {
                // the machine is gone: its lifeline removes the run's folder when the run's session ends
            } catch (InterruptedException e) {
                session.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A step's engines, listening. */
    private final class Running implements LoadEngines.Running {
        private final List<Engine> engines;

        Running(List<Engine> engines) {
            this.engines = engines;
        }

        @Override
        public String remoteHosts() {
            return String.join(",", engines.stream().map(e -> hostPort(e.machine.address(), rmiPort)).toList());
        }

        @Override
        public String controllerAddress() {
            return localAddress;
        }

        @Override
        public int controllerPort() {
            return rmiPort + 2;
        }

        @Override
        public RuntimeException lost() {
            for (Engine e : engines) {
                RuntimeException lost = e.lost();
                if (lost != null) {
                    return lost;
                }
            }
            return null;
        }

        @Override
        public List<EngineCpu> cpu() throws IOException {
            List<EngineCpu> cpu = new ArrayList<>();
            try {
                for (Engine e : engines) {
                    cpu.add(new EngineCpu(e.machine.destination(), e.cpuMs(), e.machine.cpus(),
                            (System.nanoTime() - e.beforeNanos) / 1e9));
                }
            } catch (ConnectionLostException e) {
                throw asLoadHost(e);
            }
            return cpu;
        }

        @Override
        public void close() {
            engines.forEach(Engine::stop);
        }
    }

    /** A machine's loss as {@link SharedConnection} words it, said of a load host. */
    private static ConnectionLostException asLoadHost(ConnectionLostException e) {
        return e.getMessage().contains("load host ") ? e
                : new ConnectionLostException(e.getMessage().replaceFirst("lost the connection to ", "lost the connection to load host "));
    }

    private static void copyAndUnpack(Machine m, Path archive, String directory) {
        String remote = directory + ".tar";
        check(m, m.ssh().run(START, "mkdir", "-p", directory), "create " + directory);
        check(m, m.ssh().target().copyAs(START, archive, remote), "copy " + archive.getFileName());
        check(m, m.ssh().script("tar -xf \"$1\" -C \"$2\" && rm -f \"$1\"", remote, directory), "unpack " + remote);
    }

    private static void check(Machine m, RemoteResult result, String what) {
        if (result.timedOut() || result.exitCode() == 255) {
            // scp exits with 255 for its own failures too (no SFTP server there): a host that still answers is not lost.
            try {
                m.ssh().target().checkConnection();
            } catch (SshException e) {
                throw new ConnectionLostException("lost the connection to load host " + m.destination() + " (could not " + what
                        + ": " + e.getMessage() + ")");
            }
            throw new SshException("could not " + what + " on " + m.destination() + ": "
                    + (result.timedOut() ? "no answer within " + START.toSeconds() + " s" : result.stderr().strip()));
        }
        if (result.exitCode() != 0) {
            throw new SshException("could not " + what + " on " + m.destination() + ": " + result.output().strip());
        }
    }

    private static void tar(Path dir, Path archive) throws IOException, InterruptedException {
        Process tar = new ProcessBuilder("tar", "-cf", archive.toString(), "-C", dir.toString(), ".")
                .redirectErrorStream(true).start();
        String out = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (tar.waitFor() != 0) {
            throw new IOException("tar of " + dir + " failed: " + out.strip());
        }
    }

    /** The address of {@code host}, as this machine resolves it. */
    public static String address(String host) {
        try {
            return InetAddress.getByName(host).getHostAddress();
        } catch (IOException e) {
            throw new SshException("load host " + host + " has no address here: " + e.getMessage());
        }
    }

    private static String hostPort(String address, int port) {
        return (address.contains(":") ? "[" + address + "]" : address) + ":" + port;
    }
}
