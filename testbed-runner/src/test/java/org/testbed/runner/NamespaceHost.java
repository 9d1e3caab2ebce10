package org.testbed.runner;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testbed.ssh.ShellQuoting;

/**
 * A second host that exists only on this machine, for tests that need one: a network namespace
 * with one end of a veth pair (a private /30, the other end on this side) and its own loopback,
 * and an sshd running in it (its own config and generated keys, key login as root only).
 * Everything that runs in the namespace is found with {@code ip netns pids}, so it can be killed
 * and counted without guessing by name.
 *
 * <p>Names carry {@value #PREFIX}, the pid of the JVM that made them and a random suffix;
 * {@link #removeLeftovers()} deletes those of a JVM that is gone (a run of the tests that crashed
 * before its own clean-up), never those of a test running beside it in another JVM.
 */
final class NamespaceHost implements AutoCloseable {
    static final String PREFIX = "tbrr";

    final String namespace;
    final String hostSide;
    final String address;
    final String hostAddress;
    private final Path work;
    private Process sshd;

    private NamespaceHost(String namespace, String hostSide, String address, String hostAddress, Path work) {
        this.namespace = namespace;
        this.hostSide = hostSide;
        this.address = address;
        this.hostAddress = hostAddress;
        this.work = work;
    }

    /**
     * Creates the namespace, the veth pair and its addresses. Fails with the reason when this
     * machine cannot (not root, no {@code ip}, no namespaces in this kernel or container).
     */
    static NamespaceHost create(Path work) throws IOException, InterruptedException {
        String suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        String existing = output("ip", "-o", "-4", "addr");
        int third;
        do {
            third = ThreadLocalRandom.current().nextInt(100, 200);
        } while (existing.contains("10.251." + third + "."));
        NamespaceHost host = new NamespaceHost(PREFIX + "-" + ProcessHandle.current().pid() + "-" + suffix, PREFIX + suffix + "a",
                "10.251." + third + ".2",
                "10.251." + third + ".1", work);
        String peer = PREFIX + suffix + "b";
        try {
            exec("ip", "netns", "add", host.namespace);
            exec("ip", "link", "add", host.hostSide, "type", "veth", "peer", "name", peer);
            exec("ip", "link", "set", peer, "netns", host.namespace);
            exec("ip", "addr", "add", host.hostAddress + "/30", "dev", host.hostSide);
            exec("ip", "link", "set", host.hostSide, "up");
            exec("ip", "netns", "exec", host.namespace, "ip", "addr", "add", host.address + "/30", "dev", peer);
            exec("ip", "netns", "exec", host.namespace, "ip", "link", "set", peer, "up");
            exec("ip", "netns", "exec", host.namespace, "ip", "link", "set", "lo", "up");
        } catch (IOException | RuntimeException e) {
            host.close();
            throw e;
        }
        return host;
    }

    /**
     * Deletes the namespaces (with whatever runs in them) that a JVM now gone made, and veth pairs
     * left whole on this side (a creation cut before its peer moved); deleting a namespace takes its
     * veth pair with it.
     */
    static void removeLeftovers() throws IOException, InterruptedException {
        for (String line : output("ip", "netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            Matcher owned = OWNED.matcher(name);
            if (owned.matches() && ProcessHandle.of(Long.parseLong(owned.group(1))).map(ProcessHandle::isAlive).orElse(false)) {
                continue; // a test in a JVM still running: its own
            }
            if (name.startsWith(PREFIX + "-")) {
                killAll(name);
                run("ip", "netns", "delete", name);
            }
        }
        for (String line : output("ip", "-o", "link", "show").split("\n")) {
            String[] fields = line.split(":\\s+");
            if (fields.length > 1) {
                String name = fields[1];
                if (name.matches(PREFIX + "[0-9a-f]{4}a@" + PREFIX + "[0-9a-f]{4}b")) {
                    run("ip", "link", "delete", name.split("@")[0]);
                }
            }
        }
    }

    /** A namespace's name: the prefix, the pid of the JVM that made it, the random suffix. */
    private static final Pattern OWNED = Pattern.compile(PREFIX + "-([0-9]+)-[0-9a-f]+");

    /**
     * Starts sshd in the namespace on {@link #address} port 22 with a generated host key, accepting
     * {@code authorizedKeys} for root; returns the known_hosts line of its key.
     */
    String startSshd(Path hostKey, Path authorizedKeys) throws IOException, InterruptedException {
        Path config = work.resolve("sshd_config");
        Files.writeString(config, String.join("\n", "Port 22", "ListenAddress " + address, "HostKey " + hostKey,
                "PidFile " + work.resolve("sshd.pid"), "AuthorizedKeysFile " + authorizedKeys, "AllowUsers root",
                "PubkeyAuthentication yes", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password", "UsePAM no", "StrictModes no", "X11Forwarding no",
                "AllowTcpForwarding no", "PrintMotd no", "Subsystem sftp internal-sftp", "LogLevel VERBOSE", ""));
        Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation directory
        sshd = new ProcessBuilder("ip", "netns", "exec", namespace, sshdBinary(), "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("sshd.log").toFile()))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sshd.isAlive() && !portOpen(22) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        if (!portOpen(22)) {
            throw new IllegalStateException("sshd did not start in " + namespace + "; its log:\n"
                    + Files.readString(work.resolve("sshd.log")));
        }
        String[] key = Files.readString(Path.of(hostKey + ".pub")).split(" ");
        return address + " " + key[0] + " " + key[1] + "\n";
    }

    /**
     * Routes everything the namespace sends beyond its /30 to this machine's side of its veth, so that
     * it reaches this machine's other addresses too (the host side of another namespace's veth: one
     * address that several namespaces reach). Nothing is forwarded: only this machine's own addresses answer.
     */
    void routeToThisMachine() throws IOException, InterruptedException {
        exec("ip", "netns", "exec", namespace, "ip", "route", "add", "default", "via", hostAddress);
    }

    /** Kills every sshd of the namespace, the listener and the sessions: the server's machine drops off the network. */
    void killSshd() throws IOException, InterruptedException {
        for (long pid : pids()) {
            if (command(pid).startsWith("sshd")) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** The processes running in the namespace, each as {@code PID COMMAND LINE}. */
    List<String> processes() throws IOException, InterruptedException {
        List<String> processes = new ArrayList<>();
        for (long pid : pids()) {
            String command = command(pid);
            if (!command.isEmpty()) {
                processes.add(pid + " " + command);
            }
        }
        return processes;
    }

    boolean portOpen(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private List<Long> pids() throws IOException, InterruptedException {
        return pids(namespace);
    }

    private static List<Long> pids(String namespace) throws IOException, InterruptedException {
        List<Long> pids = new ArrayList<>();
        for (String line : output("ip", "netns", "pids", namespace).split("\n")) {
            if (line.strip().matches("\\d+")) {
                pids.add(Long.parseLong(line.strip()));
            }
        }
        return pids;
    }

    private static void killAll(String namespace) throws IOException, InterruptedException {
        for (long pid : pids(namespace)) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * A test's clean-up: closes every host that was made (a null is one that never was), then
     * deletes the test's work folder, whatever the closing threw.
     */
    static void closeAll(Path work, NamespaceHost... hosts) throws IOException, InterruptedException {
        try {
            for (NamespaceHost host : hosts) {
                if (host != null) {
                    host.close();
                }
            }
        } finally {
            if (work != null) {
                RunnerJar.deleteRecursively(work);
            }
        }
    }

    /** Kills whatever still runs in the namespace, then deletes it (and with it the veth pair). */
    @Override
    public void close() throws IOException, InterruptedException {
        if (sshd != null) {
            sshd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        killAll(namespace);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!pids().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        run("ip", "netns", "delete", namespace);
        run("ip", "link", "delete", hostSide);
    }

    /**
     * Makes {@code command} (a JVM launcher and what precedes it, e.g. an emulator and its options)
     * this host's {@code java}: an executable script in its work directory that execs it with the
     * arguments it is given, for {@code --server-java}. Returns its path, the same inside the namespace.
     */
    Path java(List<String> command) throws IOException {
        Path launcher = work.resolve("java");
        Files.writeString(launcher, "#!/bin/sh\nexec " + ShellQuoting.command(command) + " \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        return launcher;
    }

    private static String command(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ').strip();
        } catch (IOException e) {
            return "";
        }
    }

    private static String sshdBinary() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "sshd"))) {
                return Path.of(dir, "sshd").toString();
            }
        }
        return "/usr/sbin/sshd";
    }

    /** Runs a command that must succeed; its output is the reason when it does not. */
    private static void exec(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("'" + String.join(" ", command) + "' failed (" + out + "): this test needs a"
                    + " machine where it may create network namespaces and veth pairs (root, iproute2, CAP_NET_ADMIN)");
        }
    }

    /** Runs a clean-up command whose failure (already gone) does not matter. */
    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    private static String output(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
