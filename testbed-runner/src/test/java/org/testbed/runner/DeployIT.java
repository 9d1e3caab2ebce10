package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;

/**
 * {@code deploy} for real, against an sshd this test starts on loopback: the "VM" is this machine,
 * a private sshd (its own config, a generated host key and client keys, key login only) on
 * 127.0.0.1 at a free port, logged into as the current user; a real memcached on another free
 * loopback port; the variant deployed from its packaged jar into a temporary directory, bound to
 * 127.0.0.1. The packaged runner jar does the deploying, as a user runs it.
 *
 * <p>Checked in order: deploy, health, PUT and GET through the deployed server; {@code --status};
 * a redeploy that reuses the jar and replaces the process; the errors (a wrong key, no sshd, an
 * unknown variant, a java too old, a Memcached that does not answer: health timeout with the end of
 * the remote log); {@code --stop} closing the port; and no deployed server left afterwards. Run as
 * root, it also deploys as an unprivileged login (a system user it creates for the purpose, with a
 * home in a temporary directory, and removes), into the default directory of that home.
 * Everything started here is stopped in {@link #stopEverything()}, whatever happened. Needs sshd,
 * ssh, scp, ssh-keygen (openssh-server, openssh-client) and memcached: without them it fails.
 */
@TestMethodOrder(OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class DeployIT {
    /** The fastest variant to start. */
    private static final String VARIANT = "vertx";
    private static final long COMMAND_LIMIT_SECONDS = 200;

    private static Path work;
    private static Process sshd;
    private static MemcachedProcess memcached;
    private static int sshPort;
    private static int appPort;
    private static String user;
    private static Path deployDir;
    /** Readable by every user: sshd reads a user's authorized keys with that user's rights. */
    private static Path keys;
    /** When the test runs as root, the unprivileged login it also deploys as, and its home. */
    private static final String UNPRIVILEGED = "testbed-deploy-it";
    private static Path unprivilegedHome;
    private static String itemId;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void startSshdAndMemcached() throws Exception {
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("ssh", "scp", "ssh-keygen")) {
            if (which(tool) == null) {
                missing.add(tool + " (apt-get install openssh-client)");
            }
        }
        if (sshdBinary() == null) {
            missing.add("sshd (apt-get install openssh-server)");
        }
        assertThat(missing).as("tools this test needs").isEmpty();
        assertThat(VariantManifest.load(RunnerJar.ROOT.resolve(VariantManifest.FILE_NAME)).find(VARIANT).jarIn(RunnerJar.ROOT))
                .as("the %s jar, packaged before this test", VARIANT).isRegularFile();

        work = Files.createTempDirectory("deploy-it", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        user = System.getProperty("user.name");
        memcached = MemcachedProcess.start();
        for (String key : List.of("host_key", "client_key", "wrong_key")) {
            exec(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "deploy-it-" + key, "-f", work.resolve(key).toString()));
        }
        keys = Files.createTempDirectory("deploy-it-keys", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.copy(work.resolve("client_key.pub"), keys.resolve("authorized_keys"));
        Files.setPosixFilePermissions(keys.resolve("authorized_keys"), PosixFilePermissions.fromString("rw-r--r--"));
        if ("root".equals(user)) {
            createUnprivilegedUser();
        }
        if ("root".equals(user)) {
            // sshd as root wants its privilege separation directory (the distribution's service makes it).
            Files.createDirectories(Path.of("/run/sshd"));
        }
        startSshd();
        // The host key is known in advance and checked strictly: no trust on first use in the test.
        Files.writeString(work.resolve("known_hosts"), "[127.0.0.1]:" + sshPort + " "
                + Files.readString(work.resolve("host_key.pub")).split(" ")[0] + " "
                + Files.readString(work.resolve("host_key.pub")).split(" ")[1] + "\n");
        appPort = freePort();
        deployDir = work.resolve("vm").resolve(VARIANT);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        try {
            if (work != null) {
                // Deployed servers by the pid files the launcher wrote in our own directories, and only
                // when that pid still runs a jar from there: never by name.
                stopDeployedServers(work.resolve("vm"), work);
            }
            if (unprivilegedHome != null) {
                stopDeployedServers(unprivilegedHome.resolve("testbed"), unprivilegedHome);
            }
        } finally {
            if (sshd != null) {
                sshd.destroy();
                if (!sshd.waitFor(10, TimeUnit.SECONDS)) {
                    sshd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            if (memcached != null) {
                memcached.close();
            }
            if (work != null) {
                RunnerJar.deleteRecursively(work);
            }
            if (keys != null) {
                RunnerJar.deleteRecursively(keys);
            }
            removeUnprivilegedUser();
        }
    }

    @Test
    @Order(1)
    void deploysAndTheServerAnswersHealthPutAndGet() throws Exception {
        RunnerJar.Outcome deploy = deploy(VARIANT, "--memcached", memcached.address(), "--app-port", Integer.toString(appPort),
                "--bind", "127.0.0.1", "--dir", deployDir.toString(), "--timeout", "120");
        assertThat(deploy.exitCode()).as(deploy.output()).isZero();
        assertThat(deploy.output()).contains("deploy: " + VARIANT + " is up on " + user + "@127.0.0.1");

        HttpResponse<String> health = get("/testbed/health");
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        itemId = "deploy-it-" + ThreadLocalRandom.current().nextInt(1_000_000);
        HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(url("/testbed/items/" + itemId))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(5))
                .PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"deployed\",\"payload\":\"over ssh\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        HttpResponse<String> read = get("/testbed/items/" + itemId);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.body()).contains("\"payload\":\"over ssh\"");

        Variant variant = VariantManifest.load(RunnerJar.ROOT.resolve(VariantManifest.FILE_NAME)).find(VARIANT);
        for (String file : List.of("testbed-launch", "variant.conf", "testbed.env", "testbed.log",
                Path.of(variant.jar()).getFileName().toString())) {
            assertThat(deployDir.resolve(file)).as("the remote directory's " + file).isRegularFile();
        }
        assertThat(Files.readString(deployDir.resolve("testbed.env"))).contains("MEMCACHED_SERVERS=" + memcached.address())
                .contains("TESTBED_PORT=" + appPort).contains("TESTBED_HOST=127.0.0.1");
    }

    @Test
    @Order(2)
    void statusSaysHealthyAndARedeployReusesTheJarAndReplacesTheProcess() throws Exception {
        RunnerJar.Outcome status = deploy(VARIANT, "--dir", deployDir.toString(), "--status");
        assertThat(status.exitCode()).as(status.output()).isZero();
        assertThat(status.output()).contains(VARIANT + ": running").contains("-> 200");

        long oldPid = Long.parseLong(Files.readString(deployDir.resolve("testbed.pid")).strip());
        RunnerJar.Outcome again = deploy(VARIANT, "--memcached", memcached.address(), "--app-port", Integer.toString(appPort),
                "--bind", "127.0.0.1", "--dir", deployDir.toString(), "--timeout", "120");
        assertThat(again.exitCode()).as(again.output()).isZero();
        assertThat(again.output()).contains("already there (same sha256)");
        long newPid = Long.parseLong(Files.readString(deployDir.resolve("testbed.pid")).strip());
        assertThat(newPid).isNotEqualTo(oldPid);
        assertThat(running(oldPid)).as("the old server process " + oldPid).isFalse();
        assertThat(get("/testbed/items/" + itemId).statusCode()).as("the item after the redeploy").isEqualTo(200);
    }

    @Test
    @Order(3)
    void aWrongKeyIsAnAuthenticationFailure() throws Exception {
        RunnerJar.Outcome wrong = RunnerJar.call(COMMAND_LIMIT_SECONDS, "deploy", VARIANT, "--root", RunnerJar.ROOT.toString(),
                "--no-build", "--host", user + "@127.0.0.1", "--ssh-port", Integer.toString(sshPort),
                "--identity", work.resolve("wrong_key").toString(), "--ssh-option", "UserKnownHostsFile=" + work.resolve("known_hosts"),
                "--ssh-option", "StrictHostKeyChecking=yes", "--dir", work.resolve("vm/wrong-key").toString(),
                "--app-port", Integer.toString(freePort()), "--bind", "127.0.0.1");
        assertFailure(wrong, "deploy: error: ssh authentication to " + user + "@127.0.0.1 failed with key");
    }

    @Test
    @Order(3)
    void noSshdIsConnectionRefused() throws Exception {
        int closed = freePort();
        RunnerJar.Outcome refused = RunnerJar.call(COMMAND_LIMIT_SECONDS, "deploy", VARIANT, "--root", RunnerJar.ROOT.toString(),
                "--no-build", "--host", user + "@127.0.0.1", "--ssh-port", Integer.toString(closed),
                "--identity", work.resolve("client_key").toString(), "--dir", work.resolve("vm/no-sshd").toString(),
                "--app-port", Integer.toString(freePort()), "--bind", "127.0.0.1");
        assertFailure(refused, "deploy: error: nothing accepts ssh on 127.0.0.1 port " + closed + " (connection refused)");
    }

    @Test
    @Order(3)
    void anUnknownVariantIsNamedWithTheKnownOnes() throws Exception {
        RunnerJar.Outcome unknown = deploy("no-such-variant", "--dir", work.resolve("vm/unknown").toString());
        assertFailure(unknown, "deploy: error: no variant 'no-such-variant' in variants.conf; one of: ");
        assertThat(unknown.output()).contains(VARIANT).doesNotContain("Exception");
    }

    @Test
    @Order(3)
    void aJavaTooOldOnTheTargetIsRefusedBeforeTheJarIsCopied() throws Exception {
        // A "java" that reports version 11: the variant needs more.
        Path oldJava = work.resolve("old-java/bin/java");
        Files.createDirectories(oldJava.getParent());
        Files.writeString(oldJava, "#!/bin/sh\necho '    java.specification.version = 11' >&2\n"
                + "echo 'openjdk version \"11.0.99\"' >&2\n");
        Files.setPosixFilePermissions(oldJava, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path dir = work.resolve("vm/old-java");
        RunnerJar.Outcome old = deploy(VARIANT, "--java", oldJava.toString(), "--dir", dir.toString(),
                "--app-port", Integer.toString(freePort()), "--bind", "127.0.0.1");
        assertFailure(old, "needs a Java 17 or newer");
        assertThat(old.output()).contains("(11)").doesNotContain("Exception");
        assertThat(dir.resolve("vertx.jar")).as("no jar sent to a machine that cannot run it").doesNotExist();
    }

    @Test
    @Order(3)
    void aMemcachedNobodyServesTimesOutOnHealthAndShowsTheRemoteLog() throws Exception {
        Path dir = work.resolve("vm/no-memcached");
        RunnerJar.Outcome timeout = deploy(VARIANT, "--memcached", "127.0.0.1:" + freePort(), "--app-port",
                Integer.toString(freePort()), "--bind", "127.0.0.1", "--dir", dir.toString(), "--timeout", "15");
        try {
            assertFailure(timeout, "did not become healthy within 15s");
            assertThat(timeout.output().lines().filter(l -> l.startsWith("  | ")))
                    .as("the end of the remote log, in:\n" + timeout.output()).isNotEmpty();
        } finally {
            RunnerJar.Outcome stop = deploy(VARIANT, "--dir", dir.toString(), "--stop");
            assertThat(stop.exitCode()).as(stop.output()).isZero();
        }
    }

    /**
     * As root, the same deploy as an unprivileged login, into the default directory of its home:
     * the launcher then starts with nohup (no systemd, no sudo) and the server runs as that user.
     * Run by an unprivileged user, the tests above already did that: then this checks they did.
     */
    @Test
    @Order(3)
    void anUnprivilegedLoginDeploysIntoItsHomeAndTheServerRunsAsIt() throws Exception {
        if (unprivilegedHome == null) {
            long pid = Long.parseLong(Files.readString(deployDir.resolve("testbed.pid")).strip());
            assertThat(uid(pid)).as("the deployed server's uid, the tests' own login").isNotZero();
            return;
        }
        int port = freePort();
        List<String> login = List.of("--host", UNPRIVILEGED + "@127.0.0.1", "--ssh-port", Integer.toString(sshPort),
                "--identity", work.resolve("client_key").toString(), "--ssh-option", "UserKnownHostsFile=" + work.resolve("known_hosts"),
                "--ssh-option", "StrictHostKeyChecking=yes", "--root", RunnerJar.ROOT.toString(), "--no-build");
        List<String> deploy = new ArrayList<>(List.of("deploy", VARIANT));
        deploy.addAll(login);
        deploy.addAll(List.of("--memcached", memcached.address(), "--app-port", Integer.toString(port), "--bind", "127.0.0.1",
                "--timeout", "120"));
        RunnerJar.Outcome deployed = RunnerJar.call(COMMAND_LIMIT_SECONDS, deploy.toArray(String[]::new));
        System.out.println(deployed.output());
        Path dir = unprivilegedHome.resolve("testbed").resolve(VARIANT);
        try {
            assertThat(deployed.exitCode()).as(deployed.output()).isZero();
            assertThat(deployed.output()).contains("privileged=no").contains("(nohup)");
            long pid = Long.parseLong(Files.readString(dir.resolve("testbed.pid")).strip());
            assertThat(uid(pid)).as("the uid of the server started by " + UNPRIVILEGED).isEqualTo(uid(UNPRIVILEGED));
            HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/testbed/health"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
        } finally {
            List<String> stop = new ArrayList<>(List.of("deploy", VARIANT));
            stop.addAll(login);
            stop.add("--stop");
            RunnerJar.Outcome stopped = RunnerJar.call(COMMAND_LIMIT_SECONDS, stop.toArray(String[]::new));
            assertThat(stopped.exitCode()).as(stopped.output()).isZero();
        }
        assertThat(portOpen(port)).as("port %d after --stop", port).isFalse();
    }

    @Test
    @Order(4)
    void stopStopsTheServerAndClosesItsPort() throws Exception {
        RunnerJar.Outcome stop = deploy(VARIANT, "--dir", deployDir.toString(), "--stop");
        assertThat(stop.exitCode()).as(stop.output()).isZero();
        assertThat(stop.output()).contains("stopped " + VARIANT);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (portOpen(appPort) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(portOpen(appPort)).as("port %d after --stop", appPort).isFalse();

        RunnerJar.Outcome status = deploy(VARIANT, "--dir", deployDir.toString(), "--status");
        assertThat(status.exitCode()).as("--status of a stopped variant\n" + status.output()).isNotZero();
        assertThat(status.output()).contains(VARIANT + ": not running");
    }

    @Test
    @Order(5)
    void noDeployedServerIsLeftRunning() {
        List<String> left = ProcessHandle.allProcesses().filter(p -> commandLine(p.pid()).contains(work.resolve("vm") + "/")
                || unprivilegedHome != null && commandLine(p.pid()).contains(unprivilegedHome + "/"))
                .filter(p -> running(p.pid())).map(p -> p.pid() + " " + commandLine(p.pid())).toList();
        assertThat(left).as("processes running from the deploy directories").isEmpty();
    }

    /** Kills the servers of the deploy directories under {@code dirs}, by their pid files, when they run a jar from {@code owner}. */
    private static void stopDeployedServers(Path dirs, Path owner) throws IOException {
        if (!Files.isDirectory(dirs)) {
            return;
        }
        try (Stream<Path> list = Files.list(dirs)) {
            for (Path pidFile : list.map(d -> d.resolve("testbed.pid")).filter(Files::isRegularFile).toList()) {
                long pid = Long.parseLong(Files.readString(pidFile).strip());
                if (commandLine(pid).contains(owner + "/")) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
    }

    /** A system user with a shell and a home of its own in a temporary directory, no password, key login only. */
    private static void createUnprivilegedUser() throws Exception {
        unprivilegedHome = Files.createTempDirectory("deploy-it-home");
        boolean exists = new ProcessBuilder("id", "-u", UNPRIVILEGED).start().waitFor() == 0;
        // '*' as the password: no password login, and not "locked", which sshd without PAM refuses.
        exec(List.of(exists ? "usermod" : "useradd", "-p", "*", "-s", "/bin/bash", "-d", unprivilegedHome.toString(), UNPRIVILEGED));
        exec(List.of("chown", UNPRIVILEGED, unprivilegedHome.toString()));
        Files.setPosixFilePermissions(unprivilegedHome, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static void removeUnprivilegedUser() throws Exception {
        if (unprivilegedHome == null) {
            return;
        }
        try {
            exec(List.of("userdel", UNPRIVILEGED));
        } finally {
            RunnerJar.deleteRecursively(unprivilegedHome);
        }
    }

    private static RunnerJar.Outcome deploy(String variant, String... more) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("deploy", variant, "--root", RunnerJar.ROOT.toString(), "--no-build",
                "--host", user + "@127.0.0.1", "--ssh-port", Integer.toString(sshPort), "--identity", work.resolve("client_key").toString(),
                "--ssh-option", "UserKnownHostsFile=" + work.resolve("known_hosts"), "--ssh-option", "StrictHostKeyChecking=yes"));
        args.addAll(Arrays.asList(more));
        RunnerJar.Outcome outcome = RunnerJar.call(COMMAND_LIMIT_SECONDS, args.toArray(String[]::new));
        System.out.println("$ testbed " + String.join(" ", args) + "\n" + outcome.output().indent(2));
        return outcome;
    }

    private static void assertFailure(RunnerJar.Outcome outcome, String expected) {
        assertThat(outcome.exitCode()).as("exit status of a deploy that must fail\n" + outcome.output()).isNotZero();
        assertThat(outcome.output()).contains(expected);
        // The remote log quoted after a failed health wait ("  | ...") is the server's own; the rest is the command's.
        assertThat(outcome.output().lines().filter(line -> !line.startsWith("  | ")))
                .as("no stack trace from the deploy itself").noneMatch(line -> line.contains("\tat ") || line.contains("Exception"));
    }

    private static void startSshd() throws Exception {
        Path config = work.resolve("sshd_config");
        for (int attempt = 0; attempt < 5; attempt++) {
            sshPort = freePort();
            Files.writeString(config, String.join("\n",
                    "Port " + sshPort, "ListenAddress 127.0.0.1", "HostKey " + work.resolve("host_key"),
                    "PidFile " + work.resolve("sshd.pid"), "AuthorizedKeysFile " + keys.resolve("authorized_keys"),
                    "AllowUsers " + user + (unprivilegedHome == null ? "" : " " + UNPRIVILEGED), "PubkeyAuthentication yes", "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password", "UsePAM no", "StrictModes no",
                    "X11Forwarding no", "AllowTcpForwarding no", "PrintMotd no", "Subsystem sftp internal-sftp",
                    "LogLevel VERBOSE", ""));
            sshd = new ProcessBuilder(sshdBinary().toString(), "-D", "-e", "-f", config.toString())
                    .redirectErrorStream(true).redirectOutput(work.resolve("sshd.log").toFile()).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (sshd.isAlive() && !portOpen(sshPort) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            if (sshd.isAlive() && portOpen(sshPort)) {
                return;
            }
            sshd.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        throw new IllegalStateException("could not start sshd; its log:\n" + Files.readString(work.resolve("sshd.log")));
    }

    private static Path sshdBinary() {
        Path onPath = which("sshd");
        return onPath != null ? onPath : Files.isExecutable(Path.of("/usr/sbin/sshd")) ? Path.of("/usr/sbin/sshd") : null;
    }

    private static Path which(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Path.of(dir, tool);
            }
        }
        return null;
    }

    private static void exec(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        }
    }

    private static boolean portOpen(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Alive and not a zombie waiting for its parent. */
    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException e) {
            return false;
        }
    }

    /** The real uid of a process, from /proc. */
    private static int uid(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream().filter(l -> l.startsWith("Uid:"))
                .map(l -> Integer.parseInt(l.split("\\s+")[1])).findFirst().orElseThrow();
    }

    private static int uid(String login) throws IOException, InterruptedException {
        Process id = new ProcessBuilder("id", "-u", login).start();
        String out = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(id.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return Integer.parseInt(out);
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    private static URI url(String path) {
        return URI.create("http://127.0.0.1:" + appPort + path);
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(url(path)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
