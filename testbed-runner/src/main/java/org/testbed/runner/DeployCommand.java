package org.testbed.runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.testbed.runner.build.ModuleJar;
import org.testbed.runner.build.StaleJars;
import org.testbed.runner.deploy.DeployException;
import org.testbed.runner.deploy.Deployer;
import org.testbed.runner.deploy.Deployment;
import org.testbed.runner.deploy.JarBuild;
import org.testbed.runner.deploy.RemoteSettings;
import org.testbed.ssh.RemoteResult;
import org.testbed.ssh.SshException;
import org.testbed.ssh.SshTarget;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./testbed deploy}: one variant onto a machine over ssh, started and healthy; its status, log, stop. */
@Command(name = "deploy", mixinStandardHelpOptions = true, sortOptions = false,
        customSynopsis = {
            "./testbed deploy <variant> --host USER@HOST [options] [-- server args]",
            "./testbed deploy <variant> --host USER@HOST --stop | --status | --logs [N]"},
        description = {
            "Copies the variant's executable jar (built first when missing or stale) and its launcher"
                + " (docker/testbed-launch) to HOST over ssh/scp, starts it detached (a systemd unit when HOST runs"
                + " systemd and the login is root or has passwordless sudo, else nohup), and waits until"
                + " GET /testbed/health answers 200 on HOST (probed on HOST itself).", ""})
final class DeployCommand implements Callable<Integer> {
    private static final int DEFAULT_LOG_LINES = 100;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "VARIANT", description = "a name of variants.conf")
    String variant;

    @Parameters(index = "1..*", paramLabel = "SERVER_ARGS",
            description = "after --: flags for the server (kept in testbed.env for restarts)")
    List<String> serverArgs = new ArrayList<>();

    @Option(names = "--host", paramLabel = "USER@HOST",
            description = "the machine (required); your ~/.ssh/config applies (aliases, ProxyJump...)")
    String host;

    @Mixin
    SshOptions ssh = new SshOptions();

    /** The ssh port's name before run --server-host took the same options: kept so that scripts go on working. */
    @Option(names = "--port", paramLabel = "N", hidden = true)
    void legacyPort(int port) {
        ssh.port = port;
    }

    @Option(names = "--memcached", paramLabel = "H:P[,H:P]",
            description = "MEMCACHED_SERVERS as seen from HOST (default: $MEMCACHED_SERVERS, else 127.0.0.1:11211 on HOST)")
    String memcached = System.getenv("MEMCACHED_SERVERS");

    @Option(names = "--app-port", paramLabel = "N", description = "TESTBED_PORT on HOST (default: $TESTBED_PORT, else 8080)")
    String appPort = System.getenv("TESTBED_PORT");

    @Option(names = "--bind", paramLabel = "ADDR",
            description = "TESTBED_HOST, the address to listen on (default: $TESTBED_HOST, else 0.0.0.0)")
    String bind = System.getenv("TESTBED_HOST");

    @Option(names = "--dir", paramLabel = "DIR",
            description = "the remote directory, absolute or relative to the login's home (default: testbed/<variant>)")
    String dir;

    @Option(names = "--java", paramLabel = "PATH", description = "the java on HOST (default: JAVA_HOME, PATH, then the"
            + " newest suitable JDK in /usr/lib/jvm); it must be at least the variant's min_jdk")
    String java;

    @Option(names = "--service", paramLabel = "MODE", description = "auto (default), systemd or nohup")
    String service = "auto";

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long to wait for health (default 180)")
    int timeout = 180;

    @Option(names = "--no-build", description = "deploy the jar as it is, without building it when missing or stale")
    boolean noBuild;

    @Option(names = "--root", paramLabel = "DIR", description = "the repository root (default: $TESTBED_ROOT, else the"
            + " folder holding variants.conf here or above)")
    Path root;

    @ParentCommand
    Main main;

    @Option(names = "--stop", description = "stop the variant on HOST")
    boolean stop;

    @Option(names = "--status", description = "is it running and healthy?")
    boolean status;

    @Option(names = "--logs", arity = "0..1", paramLabel = "N", fallbackValue = "" + DEFAULT_LOG_LINES,
            description = "print the last N lines (default 100) of its log")
    Integer logs;

    /** Where the jar is built when stale: the CLI's one jar check, as {@code serve} and {@code run} use it. */
    private final JarBuild jarBuild;

    DeployCommand() {
        this((root, variant) -> StaleJars.in(root).buildStale(List.of(new ModuleJar(variant.module(), variant.jar()))));
    }

    DeployCommand(JarBuild jarBuild) {
        this.jarBuild = jarBuild;
    }

    /** The settings footer of the usage help, from the list the deploy actually passes on. */
    static String settingsFooter() {
        return "%nSettings taken from this shell when set, so a VM runs with the same configuration as a local"
                + " './testbed serve': " + String.join(" ", RemoteSettings.passedOn())
                + ". They are written to DIR/testbed.env.";
    }

    @Override
    public Integer call() {
        try {
            return execute();
        } catch (SshException | IllegalArgumentException e) {
            System.err.println("deploy: error: " + e.getMessage());
            return 1;
        }
    }

    private int execute() {
        Path repository = RepositoryRoot.resolve(root != null || main == null ? root : main.root);
        Variant chosen = variant(repository);
        checkOneVariant();
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("--host USER@HOST is required");
        }
        SshTarget target = ssh.target(host);
        String directory = dir == null ? Deployer.defaultDirectory(chosen.name()) : dir;
        Deployer deployer = new Deployer(target, directory, System.err);
        int actions = (stop ? 1 : 0) + (status ? 1 : 0) + (logs != null ? 1 : 0);
        if (actions > 1) {
            throw new IllegalArgumentException("one of --stop, --status, --logs at a time");
        }
        if (stop) {
            return print(deployer.stop());
        }
        if (status) {
            return print(deployer.status());
        }
        if (logs != null) {
            if (logs < 1) {
                throw new IllegalArgumentException("--logs takes a number of lines, at least 1");
            }
            return print(deployer.logs(logs));
        }
        return deploy(repository, chosen, target, deployer);
    }

    private int deploy(Path repository, Variant chosen, SshTarget target, Deployer deployer) {
        int port = appPort();
        if (timeout < 0) {
            throw new IllegalArgumentException("--timeout must be a number of seconds");
        }
        RemoteSettings settings = RemoteSettings.of(System.getenv(), memcached, port, bind, java, serverArgs);
        Deployment deployment = new Deployment(chosen, chosen.jarIn(repository),
                repository.resolve("docker").resolve("testbed-launch"), settings, service, timeout);
        // Arguments are checked above, before a build is spent on them.
        SshTarget.requireClient();
        if (!noBuild) {
            jarBuild.ensureCurrent(repository, chosen);
        }
        long started = System.nanoTime();
        String again = again(chosen.name(), target, deployer.directory());
        deployer.deploy(deployment, again);
        String shownHost = bind == null || List.of("", "0.0.0.0", "::", "*").contains(bind) ? target.host() : bind;
        System.err.printf("deploy: %s is up on %s after %ds: http://%s:%d/testbed/health%n", chosen.name(),
                target.destination(), (System.nanoTime() - started) / 1_000_000_000L, shownHost, port);
        System.err.printf("deploy:   remote dir %s, log %s/testbed.log%n", deployer.directory(), deployer.directory());
        System.err.println("deploy:   status: " + again + " --status");
        System.err.println("deploy:   stop:   " + again + " --stop");
        return 0;
    }

    private Variant variant(Path repository) {
        VariantManifest manifest = VariantManifest.load(repository.resolve(VariantManifest.FILE_NAME));
        String known = manifest.variants().stream().map(Variant::name).collect(Collectors.joining(" "));
        if (variant == null || variant.isBlank()) {
            throw new IllegalArgumentException("which variant? one of: " + known);
        }
        try {
            return manifest.find(variant);
        } catch (NoSuchElementException e) {
            throw new IllegalArgumentException("no variant '" + variant + "' in variants.conf; one of: " + known);
        }
    }

    /** Words after the variant and before {@code --} are a mistake, not server flags. */
    private void checkOneVariant() {
        List<String> original = spec.commandLine().getParseResult().originalArgs();
        int delimiter = original.indexOf("--");
        List<String> beforeDelimiter = delimiter < 0 ? original : original.subList(0, delimiter);
        for (String extra : serverArgs) {
            if (beforeDelimiter.contains(extra) && (delimiter < 0 || !original.subList(delimiter, original.size()).contains(extra))) {
                throw new IllegalArgumentException("one variant at a time ('" + variant + "' and '" + extra + "');"
                        + " server flags go after --");
            }
        }
    }

    private int appPort() {
        String value = appPort == null || appPort.isBlank() ? RemoteSettings.defaultOf("TESTBED_PORT") : appPort.strip();
        try {
            int port = Integer.parseInt(value);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // the message below says what is allowed
        }
        throw new IllegalArgumentException("--app-port must be a fixed port (1-65535): the health check needs to know it;"
                + " got '" + value + "'");
    }

    /** How to name the same deployment again, for the hints. */
    private String again(String name, SshTarget target, String directory) {
        StringBuilder again = new StringBuilder("./testbed deploy " + name + " --host " + target.destination());
        if (target.port() != 22) {
            again.append(" --ssh-port ").append(target.port());
        }
        if (target.identity() != null) {
            again.append(" --identity ").append(target.identity());
        }
        if (!directory.equals(Deployer.defaultDirectory(name))) {
            again.append(" --dir ").append(directory);
        }
        return again.toString();
    }

    private static int print(RemoteResult result) {
        if (!result.stdout().isEmpty()) {
            System.out.print(result.stdout());
        }
        if (!result.stderr().isEmpty()) {
            System.err.print(result.stderr());
        }
        if (result.timedOut()) {
            throw new DeployException("no answer from the target in time");
        }
        return result.exitCode();
    }

    static void describeSettings(CommandLine deploy) {
        deploy.getCommandSpec().usageMessage().footer(String.format(settingsFooter()));
    }
}
