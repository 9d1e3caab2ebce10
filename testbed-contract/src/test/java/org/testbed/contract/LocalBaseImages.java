package org.testbed.contract;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testbed.arm64.Arm64Sysroot;

/**
 * Base images for docker/Dockerfile made without a registry, from Debian 12's packages, as root
 * filesystem tarballs for {@code podman import}, cached under the user's cache directory
 * ({@code base-images} beside the arm64 sysroot) so only a machine's first run makes them:
 *
 * <ul>
 *   <li>amd64: {@code debootstrap --variant=minbase bookworm} with OpenJDK 17's headless JRE, and
 *       memcached (the compose file's Memcached service runs from it too); about a minute.</li>
 *   <li>arm64: debootstrap's first stage only (it unpacks the packages, natively), with the arm64
 *       JRE of {@link Arm64Sysroot} laid over it and what of its second stage the images need (the
 *       account files, /proc a folder, awk). The second stage would configure every package under
 *       QEMU: tens of minutes here.</li>
 * </ul>
 *
 * Debian 12 has no JDK 21, so these bases run the variants needing 17 only.
 */
final class LocalBaseImages {
    static final String MIRROR = System.getenv().getOrDefault("TESTBED_DEBIAN_MIRROR", "http://deb.debian.org/debian");
    private static final long STEP_MINUTES = 15;

    private final Path cache;

    LocalBaseImages(Path cache) {
        this.cache = cache;
    }

    static LocalBaseImages inUserCache() {
        return new LocalBaseImages(Arm64Sysroot.inUserCache().cache().resolveSibling("base-images"));
    }

    /** What this machine lacks to make and run the images, or null. */
    static String missingCapability() {
        if (!"Linux".equals(System.getProperty("os.name")) || !"amd64".equals(System.getProperty("os.arch"))) {
            return "the image tests run on x86_64 Linux, this is " + System.getProperty("os.name") + " " + System.getProperty("os.arch");
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return "debootstrap and rootful podman need root (./testbed test as root installs and runs them)";
        }
        List<String> missing = new ArrayList<>(Stream.of("podman", "runc", "debootstrap", "catatonit", "tar").filter(tool -> !onPath(tool)).toList());
        // podman runs its network helpers from its own folder, not the PATH
        if (Stream.of("/usr/lib/podman/netavark", "/usr/libexec/podman/netavark").noneMatch(p -> Files.isExecutable(Path.of(p)))) {
            missing.add("netavark");
        }
        return missing.isEmpty() ? null
                : "not installed: " + String.join(", ", missing) + " (apt-get install podman runc debootstrap catatonit netavark aardvark-dns)";
    }

    static boolean onPath(String tool) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"), new String[] {"/usr/sbin", "/sbin"})
                .flatMap(Stream::of).anyMatch(directory -> Files.isExecutable(Path.of(directory, tool)));
    }

    Path amd64() throws IOException {
        return cached("bookworm-jre17-amd64.tar", root -> {
            run(List.of("debootstrap", "--variant=minbase", "--include=openjdk-17-jre-headless", "bookworm", root.toString(), MIRROR));
            // No service may start in the chroot while memcached installs: it would listen on the host.
            Path policy = root.resolve("usr/sbin/policy-rc.d");
            Files.writeString(policy, "#!/bin/sh\nexit 101\n", StandardCharsets.UTF_8);
            policy.toFile().setExecutable(true);
            run(List.of("chroot", root.toString(), "apt-get", "update", "-qq"));
            run(List.of("chroot", root.toString(), "apt-get", "install", "-y", "-qq", "--no-install-recommends", "memcached"));
            run(List.of("chroot", root.toString(), "apt-get", "clean"));
            Files.delete(policy);
            deleteTree(root.resolve("var/lib/apt/lists"));
        });
    }

    Path arm64() throws IOException {
        // .2: the first make of this base (before proc and awk below) cannot run a container.
        return cached("bookworm-jre17-arm64.2.tar", root -> {
            run(List.of("debootstrap", "--foreign", "--arch=arm64", "--variant=minbase", "bookworm", root.toString(), MIRROR));
            // Run inside a container (debootstrap looks for /.dockerenv), the first stage makes /proc a
            // link to the host's /proc, which its second stage replaces with a folder; runc mounts proc
            // only on a folder.
            Path proc = root.resolve("proc");
            if (Files.isSymbolicLink(proc)) {
                Files.delete(proc);
                Files.createDirectory(proc, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
            }
            deleteTree(root.resolve("debootstrap"));
            deleteTree(root.resolve("var/cache/apt/archives"));
            Path jre = Arm64Sysroot.inUserCache().prepare(System.out);
            // tar keeps the merged-/usr links (/lib -> usr/lib) where the sysroot has plain folders.
            run(List.of("sh", "-c", "tar -C \"$1\" --exclude=./packages.txt -cf - . | tar -C \"$2\" --keep-directory-symlink -xf -",
                    "sh", jre.toString(), root.toString()));
            // What base-passwd's configuration would write (groupadd and useradd edit these).
            Files.copy(root.resolve("usr/share/base-passwd/passwd.master"), root.resolve("etc/passwd"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(root.resolve("usr/share/base-passwd/group.master"), root.resolve("etc/group"), StandardCopyOption.REPLACE_EXISTING);
            // What mawk's configuration would link: awk, which the Dockerfile's build stage runs (podman 4.3
            // runs that stage on the target platform too, ignoring FROM --platform=$BUILDPLATFORM).
            Files.createDirectories(root.resolve("etc/alternatives"));
            Files.createSymbolicLink(root.resolve("etc/alternatives/awk"), Path.of("/usr/bin/mawk"));
            Files.createSymbolicLink(root.resolve("usr/bin/awk"), Path.of("/etc/alternatives/awk"));
            Path java = Path.of("/usr/lib/jvm/java-17-openjdk-arm64/bin/java");
            Files.createDirectories(root.resolve("usr/local/bin"));
            Files.createSymbolicLink(root.resolve("usr/local/bin/java"), java);
        });
    }

    private interface Maker {
        void make(Path root) throws IOException;
    }

    /** The tarball, made once under a lock (parallel runs on one machine wait for the first). */
    private Path cached(String name, Maker maker) throws IOException {
        Files.createDirectories(cache);
        Path tar = cache.resolve(name);
        try (FileChannel lockFile = FileChannel.open(cache.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = lockFile.lock()) {
            if (Files.isRegularFile(tar)) {
                return tar;
            }
            long started = System.nanoTime();
            System.out.println("testbed: making the base image " + name + " in " + cache + " (once per machine)");
            Path work = cache.resolve(name + ".partial");
            deleteTree(work);
            Path root = Files.createDirectories(work.resolve("root"));
            maker.make(root);
            Path partialTar = work.resolve(name);
            run(List.of("tar", "--numeric-owner", "-C", root.toString(), "-cf", partialTar.toString(), "."));
            Files.move(partialTar, tar, StandardCopyOption.ATOMIC_MOVE);
            deleteTree(work);
            System.out.println("testbed: made " + name + " in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s");
            return tar;
        }
    }

    static void run(List<String> command) throws IOException {
        Path log = Files.createTempFile("base-image", ".log");
        try {
            Process process = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(STEP_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IOException(String.join(" ", command) + " did not finish in " + STEP_MINUTES + " min");
            }
            if (process.exitValue() != 0) {
                List<String> lines = Files.readAllLines(log);
                throw new IOException(String.join(" ", command) + " exited with " + process.exitValue() + ": "
                        + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        // rm, not Files.walk: a chroot holds device nodes and links that must not be followed.
        run(List.of("rm", "-rf", "--one-file-system", folder.toString()));
    }
}
