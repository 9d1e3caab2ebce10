package org.testbed.toxiproxy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testbed.cache.UserCache;

/**
 * Toxiproxy's server built from source, once per machine, into the user's cache: Debian packages no
 * Toxiproxy, so {@code go install} fetches the tagged module from the Go module proxy and compiles
 * it (about 20 s to a minute). Its go.mod asks for Go 1.17, so Debian 12's {@code golang-go} (1.19)
 * builds it. A second run finds the binary and builds nothing.
 */
public final class ToxiproxyBuild {
    /** The release built; its binary reports {@code git} as its version, so this is the one to quote. */
    public static final String VERSION = "2.5.0";
    static final String MODULE = "github.com/Shopify/toxiproxy/v2/cmd/server@v" + VERSION;
    private static final String BINARY = "toxiproxy-server";
    private static final long BUILD_MINUTES = 10;

    private final Path folder;

    public ToxiproxyBuild(Path folder) {
        this.folder = folder;
    }

    /** {@code toxiproxy-VERSION} in {@link UserCache}. */
    public static ToxiproxyBuild inUserCache() {
        return new ToxiproxyBuild(UserCache.base().resolve("toxiproxy-" + VERSION));
    }

    /** Where the built server is (or will be). */
    public Path binary() {
        return folder.resolve(BINARY);
    }

    /** The Go toolchain: {@code go} on the PATH, else where the official and Debian's packages put it. */
    public static Optional<Path> goToolchain() {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, "go"))) {
                return Optional.of(Path.of(directory, "go"));
            }
        }
        return Stream.of("/usr/local/go/bin/go", "/usr/lib/go/bin/go").map(Path::of).filter(Files::isExecutable).findFirst();
    }

    /**
     * For the tests that start Toxiproxy: nothing when a binary is there (built now if this machine
     * has Go), else why this machine cannot have one; a build that fails is an exception, never a skip.
     */
    public static Optional<String> unavailable(PrintStream console) throws IOException {
        try {
            ToxiproxyProcess.findBinary();
            return Optional.empty();
        } catch (IllegalStateException missing) {
            String configured = System.getenv("TOXIPROXY_BIN");
            if (configured != null && !configured.isBlank()) {
                throw missing; // the user named a binary: building another would not honour that
            }
        }
        if (goToolchain().isEmpty()) {
            return Optional.of("toxiproxy is not built and this machine has no Go toolchain to build it"
                    + " (Debian/Ubuntu: sudo apt-get install golang-go; ./testbed test installs it when run as root)");
        }
        inUserCache().build(console);
        return Optional.empty();
    }

    /** The command that builds the server into {@code directory} (its binary is named {@code server}). */
    static String installCommand(Path directory) {
        return "GOBIN=" + directory + " go install " + MODULE;
    }

    /**
     * The built server, building it first if the cache has none. One build at a time per cache,
     * across processes; a build that fails half way leaves nothing that looks finished.
     */
    public Path build(PrintStream console) throws IOException {
        if (Files.isExecutable(binary())) {
            return binary();
        }
        Path go = goToolchain().orElseThrow(() -> new IOException(
                "no Go toolchain to build toxiproxy with: install one (Debian/Ubuntu: sudo apt-get install golang-go)"));
        Files.createDirectories(folder);
        try (FileChannel lockFile = FileChannel.open(folder.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = lockFile.lock()) {
            if (Files.isExecutable(binary())) {
                return binary(); // another process built it while this one waited
            }
            console.println("testbed: building toxiproxy " + VERSION + " from the Go module proxy (once, ~20 s)...");
            Path partial = Files.createDirectories(folder.resolve("partial"));
            Path log = folder.resolve("build.log");
            ProcessBuilder builder = new ProcessBuilder(List.of(go.toString(), "install", MODULE))
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("GOBIN", partial.toString());
            builder.environment().put("CGO_ENABLED", "0"); // a static binary: no C compiler needed
            Process process = builder.start();
            process.getOutputStream().close();
            if (!process.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException("go install " + MODULE + " did not finish within " + BUILD_MINUTES + " minutes; see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IOException("go install " + MODULE + " failed with status " + process.exitValue() + ": "
                        + tail(Files.readString(log, StandardCharsets.UTF_8)));
            }
            Files.move(partial.resolve("server"), binary(), StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(partial);
            console.println("testbed: toxiproxy " + VERSION + " built: " + binary());
            return binary();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while building toxiproxy", e);
        }
    }

    private static String tail(String output) {
        String stripped = output.strip();
        return stripped.length() <= 800 ? stripped : "..." + stripped.substring(stripped.length() - 800);
    }
}
