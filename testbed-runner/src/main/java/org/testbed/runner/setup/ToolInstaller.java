package org.testbed.runner.setup;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.testbed.arm64.Arm64Sysroot;
import org.testbed.arm64.EmulatedArm64Jvm;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runner.build.Processes;
import org.testbed.toxiproxy.ToxiproxyBuild;
import org.testbed.toxiproxy.ToxiproxyProcess;

/**
 * Provides the programs the servers and the tests use besides a JDK: Debian's packages installed
 * with apt-get when run as root, otherwise a one-line instruction saying what to install.
 */
public final class ToolInstaller {
    private final PrintStream console;

    public ToolInstaller(PrintStream console) {
        this.console = console;
    }

    /** memcached, which every test, the runner and a private {@code serve} memcached start. */
    public void ensureMemcached() {
        try {
            MemcachedProcess.findBinary();
            return;
        } catch (IllegalStateException missing) {
            if (System.getenv("MEMCACHED_BIN") != null && !System.getenv("MEMCACHED_BIN").isBlank()) {
                throw missing; // the user named a binary: installing another would not honour that
            }
        }
        install("memcached", "memcached");
        // Just installed here: the tests and the runner start their own memcached on free ports, so the
        // packaged service (listening on :11211) is not needed.
        stopService("memcached");
    }

    /**
     * Toxiproxy, which puts a store latency between the servers and memcached ({@code --store-latency})
     * and which fault tests break connections with: built once from the Go module proxy into the user's
     * cache ({@link ToxiproxyBuild}), with Debian's Go installed first if this machine has none.
     */
    public void ensureToxiproxy() {
        try {
            ToxiproxyProcess.findBinary();
            return;
        } catch (IllegalStateException missing) {
            if (System.getenv("TOXIPROXY_BIN") != null && !System.getenv("TOXIPROXY_BIN").isBlank()) {
                throw missing; // the user named a binary: building another would not honour that
            }
        }
        if (ToxiproxyBuild.goToolchain().isEmpty()) {
            install("Go (builds toxiproxy, which Debian does not package)", "golang-go");
        }
        try {
            ToxiproxyBuild.inUserCache().build(console);
        } catch (IOException e) {
            throw new IllegalStateException("could not build toxiproxy " + ToxiproxyBuild.VERSION + ": " + e.getMessage(), e);
        }
    }

    /**
     * What the full test suite needs: memcached (every test), toxiproxy (the store latency and
     * connection fault tests), chromium (the report render test),
     * sshd and an ssh client (the deploy and remote run tests), iproute2 (the remote run test's
     * network namespace), docker-compose (validating the compose file), perf
     * (the counters test), curl, and qemu-user-static with an arm64 JRE (the emulated arm64 test).
     */
    public void ensureTestTools() {
        ensureMemcached();
        try {
            ensureToxiproxy();
        } catch (IllegalStateException cannot) {
            // Said, not fatal: those tests skip with this reason unless a toxiproxy binary or Go is there.
            console.println("testbed: the store latency tests will be skipped: " + cannot.getMessage());
        }
        if (onPath("chromium") == null) {
            install("chromium (renders the report in a test)", "chromium");
        }
        boolean sshd = onPath("sshd") != null || Files.isExecutable(Path.of("/usr/sbin/sshd"));
        if (!sshd || onPath("ssh") == null) {
            install("OpenSSH (the deploy test's loopback sshd)", "openssh-server", "openssh-client");
            stopService("ssh"); // the deploy test runs its own sshd on a free loopback port
        }
        if (onPath("ip") == null && !Files.isExecutable(Path.of("/usr/sbin/ip")) && !Files.isExecutable(Path.of("/sbin/ip"))) {
            install("iproute2 (the remote run test's second host: a network namespace and a veth pair)", "iproute2");
        }
        if (onPath("docker-compose") == null) {
            install("docker-compose (validates docker/compose.yaml)", "docker-compose");
        }
        if (onPath("perf") == null) {
            install("perf (counts the server's events in the counters test)", "linux-perf");
        }
        if (onPath("curl") == null) {
            install("curl", "curl");
        }
        ensureEmulatedArm64();
        ensureContainerTools();
    }

    /**
     * What the container image tests use: podman with runc, its pod pause program, its network
     * helpers and the iptables they drive, and debootstrap (their base images are made from Debian's packages, no registry). Missing and not installable here is
     * said, not fatal: the tests then skip with the reason in the contract summary.
     */
    void ensureContainerTools() {
        boolean netavark = Files.isExecutable(Path.of("/usr/lib/podman/netavark")) || Files.isExecutable(Path.of("/usr/libexec/podman/netavark"));
        // iptables too: netavark publishes ports through it, yet no package of this list depends on it
        // (podman alone would pull it in through the CNI plugins, which netavark replaces here).
        boolean iptables = onPath("iptables") != null || Files.isExecutable(Path.of("/usr/sbin/iptables"));
        if (onPath("podman") == null || onPath("runc") == null && !Files.isExecutable(Path.of("/usr/sbin/runc"))
                || onPath("catatonit") == null || !netavark || !iptables
                || onPath("debootstrap") == null && !Files.isExecutable(Path.of("/usr/sbin/debootstrap"))) {
            try {
                install("podman and debootstrap (the container image tests)", "podman", "runc", "catatonit", "netavark", "aardvark-dns",
                        "iptables", "debootstrap");
            } catch (IllegalStateException notRoot) {
                console.println("testbed: the container image tests will be skipped: " + notRoot.getMessage());
                return;
            }
        }
    }

    /**
     * The emulated arm64 JVM of the arm64 contract test: QEMU's user-mode emulator and Debian's
     * arm64 JRE unpacked into a cached sysroot (built once per machine, see {@link Arm64Sysroot}).
     * What cannot be had here is said, not fatal: the test then skips with the same reason, and
     * {@code ./testbed test} prints it in the contract summary.
     */
    void ensureEmulatedArm64() {
        if (onPath(EmulatedArm64Jvm.EMULATOR) == null) {
            try {
                install("QEMU's user-mode emulator (runs the arm64 contract test's JVM)", "qemu-user-static");
            } catch (IllegalStateException notRoot) {
                console.println("testbed: the arm64 contract test will be skipped: " + notRoot.getMessage());
                return;
            }
        }
        Optional<String> missingTools = Arm64Sysroot.missingTools();
        if (missingTools.isPresent()) {
            console.println("testbed: the arm64 contract test will be skipped unless an arm64 JVM is cached: " + missingTools.get());
            return;
        }
        Arm64Sysroot sysroot = Arm64Sysroot.inUserCache();
        try {
            // Asks apt for the current versions each time: a JRE update builds a new sysroot.
            sysroot.prepare(console);
        } catch (IOException | RuntimeException e) {
            console.println("testbed: could not build the arm64 JVM in " + sysroot.cache() + " (" + e.getMessage()
                    + "); the arm64 contract test uses the one cached, if any, else it is skipped");
        }
    }

    private void install(String what, String... packages) {
        String names = String.join(" ", packages);
        if (!"root".equals(System.getProperty("user.name")) || onPath("apt-get") == null) {
            throw new IllegalStateException(what + " is not installed. Install it: sudo apt-get install " + names
                    + " (Debian/Ubuntu); or see README.md.");
        }
        console.println("testbed: " + what + " is missing; installing Debian's package(s): " + names);
        List<String> install = new ArrayList<>(List.of("apt-get", "install", "-y", "-qq", "--no-install-recommends"));
        install.addAll(List.of(packages));
        ProcessBuilder update = new ProcessBuilder("apt-get", "update", "-qq").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        ProcessBuilder apt = new ProcessBuilder(install).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        apt.environment().put("DEBIAN_FRONTEND", "noninteractive");
        if (Processes.run(update) != 0 || Processes.run(apt) != 0) {
            throw new IllegalStateException("could not install " + names + " with apt-get");
        }
    }

    /** Only ever called for a service just installed here. */
    private static void stopService(String name) {
        if (onPath("systemctl") != null) {
            Processes.run(new ProcessBuilder("systemctl", "disable", "--now", name).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        }
    }

    /** The executable {@code command} on the PATH, or null. */
    public static Path onPath(String command) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, command))) {
                return Path.of(directory, command);
            }
        }
        return null;
    }
}
