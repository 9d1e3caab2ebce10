package org.testbed.runner.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.testbed.ssh.RemoteResult;
import org.testbed.ssh.SshTarget;
import org.testbed.variant.Variant;

/**
 * Puts variants on one target and looks after them there, over {@link SshTarget}. The remote side
 * is {@code testbed-launch}, copied into the remote directory with the variant's line of
 * variants.conf and its settings: a VM needs a JRE and bash, nothing else.
 *
 * <p>The remote directory holds the jar, {@code testbed-launch}, {@code variant.conf},
 * {@code testbed.env}, and once started {@code testbed.log}, {@code testbed.pid} and
 * {@code testbed.state}.
 */
public final class Deployer {
    /** What the deploy writes into the remote directory besides the jar. */
    private static final String LAUNCHER = "testbed-launch";
    private static final String VARIANT_LINE = "variant.conf";
    private static final String SETTINGS = "testbed.env";

    /** The launcher's exit codes (see testbed-launch). */
    static final int NO_JAVA = 3;
    static final int EXITED = 4;
    static final int NOT_HEALTHY = 5;

    /** A remote directory: relative to the login's home unless absolute; no ~, no spaces, no shell syntax. */
    private static final Pattern DIRECTORY = Pattern.compile("[A-Za-z0-9._/+-]+");
    /** One short remote command (mkdir, mv, sha256sum, the launcher's stop or status). */
    private static final Duration SHORT = Duration.ofSeconds(60);
    /** One copy: a jar of 20 MB over a slow link. */
    private static final Duration COPY = Duration.ofMinutes(10);
    /** Beyond the health wait itself: a hung connection must not hang the deploy. */
    private static final Duration HEALTH_MARGIN = Duration.ofSeconds(30);

    private final SshTarget target;
    private final String directory;
    private final PrintStream progress;

    /**
     * @param directory where the variant lives on the target, relative to the login's home unless absolute
     * @param progress  where progress lines go ({@code deploy: ...}), and the launcher's own output
     */
    public Deployer(SshTarget target, String directory, PrintStream progress) {
        if (!DIRECTORY.matcher(directory).matches()) {
            throw new IllegalArgumentException("--dir '" + directory + "': use letters, digits and . _ / + - only"
                    + " (no ~: a relative path is relative to the home directory)");
        }
        this.target = target;
        this.directory = directory;
        this.progress = progress;
    }

    /** The default remote directory of a variant. */
    public static String defaultDirectory(String variant) {
        return "testbed/" + variant;
    }

    public String directory() {
        return directory;
    }

    /**
     * Copies the launcher, the variant's line and the settings, checks the target's java, copies the
     * jar unless the same one (by sha256) is there, starts the variant (replacing a running one) and
     * waits for its health. Fails with a {@link DeployException} saying what to do; when the variant
     * does not become healthy, the end of its remote log has been printed and it is left running.
     *
     * @param again how to name this deployment again on the command line, for the hints in messages
     * @return what the target said about itself (host, arch, java...)
     */
    public String deploy(Deployment deployment, String again) {
        Variant variant = deployment.variant();
        if (!Files.isRegularFile(deployment.jar())) {
            throw new DeployException("no jar at " + deployment.jar() + "; build it first (./testbed deploy builds it when stale)");
        }
        say("connecting to " + target.destination() + " (ssh port " + target.port() + ")...");
        target.checkConnection();

        say("preparing " + directory + " on " + target.destination() + "...");
        require(target.run(SHORT, "mkdir", "-p", directory), "could not create " + directory + " on " + target.destination());
        Path staging = stage(deployment);
        try {
            require(target.copy(COPY, directory, staging.resolve(LAUNCHER), staging.resolve(VARIANT_LINE),
                    staging.resolve(SETTINGS)), "could not copy the launcher to " + target.destination() + ":" + directory);
        } finally {
            deleteStaging(staging);
        }

        // Java on the target before megabytes go over: the variant's min_jdk or newer.
        RemoteResult check = launcher(SHORT, null, "check");
        if (!check.ok()) {
            throw new DeployException(check.output().replace("testbed-launch: ", ""));
        }
        String targetSays = check.stdout().strip();
        say("target: " + targetSays);

        copyJarUnlessThere(deployment);

        say("starting " + variant.name() + " (" + variant.mode() + ") on " + target.destination() + "...");
        RemoteResult started = launcher(SHORT, this::passOn, "start", "--service", deployment.service());
        if (!started.ok()) {
            throw new DeployException("could not start " + variant.name() + " on " + target.destination());
        }

        say("waiting up to " + deployment.healthSeconds() + "s for /testbed/health on " + target.destination() + "...");
        RemoteResult health = launcher(Duration.ofSeconds(deployment.healthSeconds()).plus(HEALTH_MARGIN), this::passOn,
                "wait", Integer.toString(deployment.healthSeconds()));
        if (health.timedOut()) {
            throw new DeployException("no answer from " + target.destination() + " while waiting for health (ssh hung for "
                    + (deployment.healthSeconds() + HEALTH_MARGIN.toSeconds()) + "s)");
        }
        switch (health.exitCode()) {
            case 0 -> {
                return targetSays;
            }
            case EXITED -> throw new DeployException(variant.name() + " exited on " + target.destination()
                    + " before it was healthy (its log is above; '" + again + " --logs')");
            case NOT_HEALTHY -> throw new DeployException(variant.name() + " did not become healthy within "
                    + deployment.healthSeconds() + "s on " + target.destination() + " (is Memcached at "
                    + deployment.settings().values().get(RemoteSettings.MEMCACHED) + " reachable from there?). It is left"
                    + " running: '" + again + " --logs' to look, '... --stop' to stop it.");
            default -> throw new DeployException("waiting for health on " + target.destination() + " failed (exit "
                    + health.exitCode() + ")");
        }
    }

    /** Is it running and healthy? The launcher's answer; exit code 0 only when both. */
    public RemoteResult status() {
        requireInstalled();
        return launcher(SHORT, null, "status");
    }

    /** The last {@code lines} lines of the remote log. */
    public RemoteResult logs(int lines) {
        requireInstalled();
        return launcher(SHORT, null, "log", Integer.toString(lines));
    }

    /** Stops the variant (the launcher waits up to 20 s, then kills it). */
    public RemoteResult stop() {
        requireInstalled();
        return launcher(SHORT, null, "stop");
    }

    /** Runs one command of testbed-launch on the target. */
    public RemoteResult launcher(Duration limit, Consumer<String> lines, String... arguments) {
        String[] words = Stream.concat(Stream.of(directory + "/" + LAUNCHER), Stream.of(arguments)).toArray(String[]::new);
        return target.run(limit, lines, words);
    }

    private void requireInstalled() {
        target.checkConnection();
        if (!target.run(SHORT, "test", "-x", directory + "/" + LAUNCHER).ok()) {
            throw new DeployException("nothing is deployed in " + directory + " on " + target.destination());
        }
    }

    private void copyJarUnlessThere(Deployment deployment) {
        String jar = deployment.jarName();
        String local = sha256(deployment.jar());
        RemoteResult remote = target.run(SHORT, "sha256sum", directory + "/" + jar);
        String remoteSum = remote.ok() ? remote.stdout().strip().split("\\s+")[0] : "";
        if (local.equals(remoteSum)) {
            say(jar + " is already there (same sha256)");
            return;
        }
        say("copying " + jar + " (" + megabytes(deployment.jar()) + ")...");
        // Under a temporary name, then renamed: a running server never sees a half-written jar.
        require(target.copyAs(COPY, deployment.jar(), directory + "/" + jar + ".part"),
                "could not copy the jar to " + target.destination());
        require(target.run(SHORT, "mv", "-f", directory + "/" + jar + ".part", directory + "/" + jar),
                "could not put the jar in place on " + target.destination());
    }

    /** The three small files, in a private temporary directory. */
    private static Path stage(Deployment deployment) {
        Variant v = deployment.variant();
        try {
            Path dir = Files.createTempDirectory("testbed-deploy");
            Files.copy(deployment.launcher(), dir.resolve(LAUNCHER));
            Files.setPosixFilePermissions(dir.resolve(LAUNCHER), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.writeString(dir.resolve(VARIANT_LINE), "# " + v.name() + ": the variant line of variants.conf, read by testbed-launch\n"
                    + String.join("  ", v.name(), v.module(), v.jar(), v.mode(), Integer.toString(v.minJdk()), v.description()) + "\n");
            Files.writeString(dir.resolve(SETTINGS), deployment.settings().envFile(localHostName()));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the files to copy: " + e.getMessage(), e);
        }
    }

    private static void deleteStaging(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // A temporary directory left behind is harmless; the deploy goes on.
        }
    }

    private static void require(RemoteResult result, String failure) {
        if (!result.ok()) {
            throw new DeployException(explain(failure, result.output()));
        }
    }

    /**
     * The failure with what the command said. OpenSSH's scp copies over SFTP since 9.0, so an sshd
     * without an sftp subsystem accepts the login and then closes the copy with no other word.
     */
    static String explain(String failure, String output) {
        String said = output.isBlank() ? "" : ": " + output.strip().replaceAll("\\s*\\R\\s*", "; ");
        if (output.contains("scp: Connection closed")) {
            said += " (scp copies over SFTP: the sshd there needs a 'Subsystem sftp' line in its sshd_config)";
        }
        return failure + said;
    }

    private void say(String line) {
        progress.println("deploy: " + line);
    }

    private void passOn(String line) {
        progress.println(line);
    }

    static String sha256(Path file) {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    private static String megabytes(Path file) {
        try {
            return String.format(Locale.ROOT, "%.1f MB", Files.size(file) / 1e6);
        } catch (IOException e) {
            return "? MB";
        }
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "this machine";
        }
    }
}
