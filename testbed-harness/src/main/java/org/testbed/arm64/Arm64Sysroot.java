package org.testbed.arm64;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testbed.cache.UserCache;

/**
 * A folder holding Debian's arm64 OpenJDK 17 runtime and the few libraries it links, unpacked as
 * they would be installed on an arm64 Debian 12: what {@code qemu-aarch64-static -L FOLDER} needs
 * to run an aarch64 JVM on an x86_64 machine ({@link EmulatedArm64Jvm}).
 *
 * <p>Built once per machine under the user's cache directory and kept between runs, in a folder
 * named after the exact package versions, so a security update of the JRE builds a new one. The
 * packages are fetched with apt-get against a private package list and state (the machine's own
 * sources, arm64 as the only architecture): the machine's dpkg architectures and package lists are
 * never touched, so nothing needs restoring, even when a step fails half way.
 */
public final class Arm64Sysroot {
    /** Debian 12 arm64 has no OpenJDK 21, so the emulated JVM is a 17. */
    public static final int JDK_FEATURE = 17;
    static final List<String> PACKAGES = List.of("openjdk-17-jre-headless", "libc6", "libgcc-s1", "libstdc++6", "zlib1g");
    static final Path JAVA = Path.of("usr", "lib", "jvm", "java-17-openjdk-arm64", "bin", "java");
    /** Written last: a folder without it is a build that did not finish. */
    private static final String COMPLETE = "packages.txt";
    private static final Duration APT_TIMEOUT = Duration.ofMinutes(5);

    private final Path cache;

    public Arm64Sysroot(Path cache) {
        this.cache = cache;
    }

    /**
     * {@code $TESTBED_CACHE_DIR}, else {@code $XDG_CACHE_HOME/testbed}, else {@code ~/.cache/testbed},
     * each with {@code arm64-sysroot} beneath.
     */
    public static Arm64Sysroot inUserCache() {
        return new Arm64Sysroot(UserCache.base().resolve("arm64-sysroot"));
    }

    public Path cache() {
        return cache;
    }

    /** The most recently built complete sysroot in the cache, if any; never fetches anything. */
    public Optional<Path> prepared() {
        if (!Files.isDirectory(cache)) {
            return Optional.empty();
        }
        try (Stream<Path> folders = Files.list(cache)) {
            return folders.filter(folder -> Files.isRegularFile(folder.resolve(COMPLETE)))
                    .filter(folder -> Files.isExecutable(folder.resolve(JAVA)))
                    .max(Comparator.comparing(Arm64Sysroot::modified));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether this machine has what {@link #prepare} runs: apt-get, apt-cache and dpkg-deb. */
    public static Optional<String> missingTools() {
        List<String> missing = Stream.of("apt-get", "apt-cache", "dpkg-deb").filter(tool -> Commands.onPath(tool).isEmpty()).toList();
        return missing.isEmpty() ? Optional.empty()
                : Optional.of(String.join(", ", missing) + " not found: the arm64 runtime is built from Debian's packages");
    }

    /**
     * The sysroot for the arm64 package versions the machine's sources offer now, built if the cache
     * has none for them (about 45 MB fetched, 210 MB unpacked); older versions' folders are removed.
     * One build at a time per cache, across processes.
     */
    public Path prepare(java.io.PrintStream console) throws IOException {
        Files.createDirectories(cache);
        try (FileChannel lockFile = FileChannel.open(cache.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = lockFile.lock()) {
            AptState apt = new AptState(cache.resolve("apt"));
            apt.update();
            List<String> versions = new ArrayList<>();
            for (String name : PACKAGES) {
                versions.add(name + "=" + apt.candidateVersion(name));
            }
            Path target = cache.resolve(key(versions));
            if (Files.isRegularFile(target.resolve(COMPLETE))) {
                return target;
            }
            console.println("testbed: building the arm64 JVM for the emulated test in " + target + " (" + String.join(" ", versions) + ")");
            Path partial = cache.resolve(target.getFileName() + ".partial");
            deleteTree(partial);
            Path debs = Files.createDirectories(partial.resolve("debs"));
            Path root = Files.createDirectories(partial.resolve("root"));
            apt.download(versions, debs);
            try (Stream<Path> files = Files.list(debs)) {
                for (Path deb : files.filter(f -> f.toString().endsWith(".deb")).sorted().toList()) {
                    Commands.run(List.of("dpkg-deb", "-x", deb.toString(), root.toString()), null, APT_TIMEOUT);
                }
            }
            deleteTree(debs);
            SysrootLinks.keepInside(root);
            if (!Files.isExecutable(root.resolve(JAVA))) {
                throw new IOException("the unpacked packages hold no " + JAVA);
            }
            // The folder itself becomes the sysroot: root/ moves up so the layout is TARGET/usr/...
            deleteTree(target);
            Files.move(root, target, StandardCopyOption.ATOMIC_MOVE);
            deleteTree(partial);
            Files.writeString(target.resolve(COMPLETE), String.join("\n", versions) + "\n", StandardCharsets.UTF_8);
            removeOthers(target);
            return target;
        }
    }

    /** The folder name: the JRE's version, readable, and a digest of every package's version. */
    static String key(List<String> versions) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(String.join("\n", versions).getBytes(StandardCharsets.UTF_8));
            String jre = versions.get(0).substring(versions.get(0).indexOf('=') + 1).replaceAll("[^A-Za-z0-9.]", "_");
            return "jre-" + jre + "-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void removeOthers(Path keep) throws IOException {
        try (Stream<Path> folders = Files.list(cache)) {
            for (Path folder : folders.filter(Files::isDirectory).toList()) {
                if (!folder.equals(keep) && folder.getFileName().toString().startsWith("jre-")) {
                    deleteTree(folder);
                }
            }
        }
    }

    private static java.nio.file.attribute.FileTime modified(Path folder) {
        try {
            return Files.getLastModifiedTime(folder.resolve(COMPLETE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /**
     * apt-get and apt-cache with their own package lists and cache under {@code dir}, arm64 as the
     * only architecture and an empty dpkg status: they read the machine's sources and keys, and
     * write nothing outside {@code dir}.
     */
    private static final class AptState {
        private final Path dir;

        AptState(Path dir) {
            this.dir = dir;
        }

        private List<String> options() {
            List<String> options = new ArrayList<>(List.of(
                    "-o", "APT::Architecture=arm64", "-o", "APT::Architectures::=arm64",
                    "-o", "Dir::State=" + dir.resolve("state"), "-o", "Dir::State::Lists=" + dir.resolve("lists"),
                    "-o", "Dir::State::status=/dev/null", "-o", "Dir::Cache=" + dir.resolve("cache")));
            if ("root".equals(System.getProperty("user.name"))) {
                // apt would fetch as its unprivileged user, who cannot write into root's cache.
                options.addAll(List.of("-o", "APT::Sandbox::User=root"));
            }
            return options;
        }

        void update() throws IOException {
            Files.createDirectories(dir.resolve("lists").resolve("partial"));
            Files.createDirectories(dir.resolve("state"));
            Files.createDirectories(dir.resolve("cache").resolve("archives").resolve("partial"));
            List<String> command = new ArrayList<>(List.of("apt-get", "-qq"));
            command.addAll(options());
            command.add("update");
            Commands.run(command, null, APT_TIMEOUT);
        }

        String candidateVersion(String name) throws IOException {
            List<String> command = new ArrayList<>(List.of("apt-cache"));
            command.addAll(options());
            command.addAll(List.of("show", "--no-all-versions", name));
            for (String line : Commands.run(command, null, APT_TIMEOUT).split("\n")) {
                if (line.startsWith("Version: ")) {
                    return line.substring("Version: ".length()).strip();
                }
            }
            throw new IOException("Debian's sources offer no arm64 " + name);
        }

        void download(List<String> versions, Path into) throws IOException {
            List<String> command = new ArrayList<>(List.of("apt-get", "-qq"));
            command.addAll(options());
            command.add("download");
            command.addAll(versions);
            Commands.run(command, into, APT_TIMEOUT);
        }
    }
}
