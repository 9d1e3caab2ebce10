package org.testbed.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testbed.variant.Variant;

/**
 * A podman of this test run's own: its containers.conf, storage and network definitions in a
 * temporary folder, so the machine's global configuration and image store are never read nor
 * written, and removed (every container, image and layer) when the JVM exits. The base images come
 * from {@link LocalBaseImages}, made here without a registry and cached between runs.
 *
 * <p>The settings are those a plain VM without systemd needs: runc (crun refuses hybrid cgroups),
 * cgroupfs, a file events log, and default ulimits no higher than this process's hard limits (root
 * here may lack CAP_SYS_RESOURCE, so a container asking for more fails to start).
 */
final class PodmanLab {
    static final String SUITE = "container images";
    static final String BASE_AMD64 = "localhost/testbed-base/bookworm-jre17:amd64";
    static final String BASE_ARM64 = "localhost/testbed-base/bookworm-jre17:arm64";
    /**
     * Both bases under one name, as a multi-arch image on a registry is: the Dockerfile's source stage
     * asks for the build platform's, the server stage for the target's.
     */
    static final String BASE_MULTI = "localhost/testbed-base/bookworm-jre17:multi";
    /** podman 4 starts a container's processes under conmon, whose process limit is at most this. */
    private static final long CONMON_NPROC = 32768;

    private static PodmanLab lab;
    private static String skipReason;

    final Path dir;
    private final Map<String, String> env = new LinkedHashMap<>();
    private final LocalBaseImages bases = LocalBaseImages.inUserCache();
    private boolean arm64Imported;
    private Path context;

    private PodmanLab(Path dir) throws IOException {
        this.dir = dir;
        long nofile = Math.min(OpenFileLimit.ofSelf().hard(), 1048576);
        long nproc = nprocLimit();
        Files.writeString(dir.resolve("containers.conf"), String.join("\n",
                "# This test run's own podman configuration; the machine's global one is not read.",
                "[containers]",
                "default_ulimits = [\"nofile=" + nofile + ":" + nofile + "\", \"nproc=" + nproc + ":" + nproc + "\"]",
                "[engine]",
                "runtime = \"runc\"",
                "cgroup_manager = \"cgroupfs\"",
                "events_logger = \"file\"",
                "tmp_dir = \"" + dir.resolve("tmp") + "\"",
                "[network]",
                "network_backend = \"netavark\"",
                "network_config_dir = \"" + dir.resolve("networks") + "\"",
                ""), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("storage.conf"), String.join("\n",
                "[storage]",
                "driver = \"overlay\"",
                "graphroot = \"" + dir.resolve("graph") + "\"",
                "runroot = \"" + dir.resolve("run") + "\"",
                ""), StandardCharsets.UTF_8);
        env.put("CONTAINERS_CONF", dir.resolve("containers.conf").toString());
        env.put("CONTAINERS_STORAGE_CONF", dir.resolve("storage.conf").toString());
        env.put("CONTAINERS_REGISTRIES_CONF", writeRegistries().toString());
    }

    /** No registry is asked for anything: short names resolve to local images only. */
    private Path writeRegistries() throws IOException {
        return Files.writeString(dir.resolve("registries.conf"),
                "unqualified-search-registries = []\nshort-name-mode = \"permissive\"\n", StandardCharsets.UTF_8);
    }

    /** The run's lab with the amd64 base image imported, or null (see {@link #skipReason()}). */
    static synchronized PodmanLab get() {
        if (lab == null && skipReason == null) {
            skipReason = LocalBaseImages.missingCapability();
            if (skipReason == null) {
                try {
                    PodmanLab created = new PodmanLab(Files.createTempDirectory("testbed-podman"));
                    Runtime.getRuntime().addShutdownHook(new Thread(created::removeEverything));
                    created.podmanOk(Duration.ofMinutes(5), "import", "--arch", "amd64", created.bases.amd64().toString(), BASE_AMD64);
                    lab = created;
                } catch (IOException | RuntimeException e) {
                    skipReason = "podman could not be set up here: " + e.getMessage();
                }
            }
        }
        return lab;
    }

    /** Why this machine cannot build and run images; null once {@link #get()} gave a lab. */
    static synchronized String skipReason() {
        get();
        return skipReason;
    }

    Map<String, String> environment() {
        return env;
    }

    /** The arm64 base image, imported once per run; it needs QEMU's aarch64 binfmt handler. */
    synchronized void importArm64Base() throws IOException {
        if (!arm64Imported) {
            podmanOk(Duration.ofMinutes(5), "import", "--arch", "arm64", bases.arm64().toString(), BASE_ARM64);
            podmanOk(Duration.ofMinutes(1), "manifest", "create", BASE_MULTI);
            podmanOk(Duration.ofMinutes(1), "manifest", "add", BASE_MULTI, "containers-storage:" + BASE_AMD64);
            podmanOk(Duration.ofMinutes(1), "manifest", "add", BASE_MULTI, "containers-storage:" + BASE_ARM64);
            arm64Imported = true;
        }
    }

    /**
     * The build context every image of the run shares (so the Dockerfile's source layer is made once):
     * variants.conf, docker/testbed-launch and the variants' jars, which {@code JARS=context} takes.
     */
    synchronized Path context() throws IOException {
        if (context == null) {
            Path root = ContractVariants.repositoryRoot();
            Path folder = Files.createDirectories(dir.resolve("context"));
            copy(root, folder, "variants.conf");
            copy(root, folder, "docker/testbed-launch");
            for (Variant variant : ContractVariants.selected()) {
                if (!Files.exists(folder.resolve(variant.jar()))) {
                    copy(root, folder, variant.jar());
                }
            }
            context = folder;
        }
        return context;
    }

    private static void copy(Path from, Path to, String relative) throws IOException {
        Path target = to.resolve(relative);
        Files.createDirectories(target.getParent());
        Files.copy(from.resolve(relative), target);
    }

    /** Builds docker/Dockerfile's server stage for a variant from the local base images; returns the build's output. */
    String build(String tag, String variant, String platform, String baseImage) throws IOException {
        Path dockerfile = ContractVariants.repositoryRoot().resolve("docker/Dockerfile");
        Result result = podman(Duration.ofMinutes(10), "build", "--format", "docker", "--pull=never", "--platform", platform,
                "-f", dockerfile.toString(), "--build-arg", "JARS=context", "--build-arg", "JDK_IMAGE=" + baseImage,
                "--build-arg", "JRE_IMAGE=" + baseImage, "--build-arg", "VARIANT=" + variant, "-t", tag, context().toString());
        if (result.exitCode() != 0) {
            throw new IllegalStateException("podman build of " + variant + " failed:\n" + result.output());
        }
        return result.output();
    }

    record Result(int exitCode, String output) {
    }

    Result podman(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(args));
        return run(command, timeout);
    }

    String podmanOk(Duration timeout, String... args) {
        Result result = podman(timeout, args);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("podman " + String.join(" ", args) + " exited with " + result.exitCode() + ": " + result.output());
        }
        return result.output().strip();
    }

    Result run(List<String> command, Duration timeout) {
        try {
            Path out = Files.createTempFile(dir, "cmd", ".out");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return new Result(-1, String.join(" ", command) + " did not finish in " + timeout.toSeconds() + " s");
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            Files.delete(out);
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every container, pod, image and layer of the run, then the folder. */
    private void removeEverything() {
        podman(Duration.ofMinutes(1), "pod", "rm", "--all", "--force");
        podman(Duration.ofMinutes(1), "rm", "--all", "--force", "--time", "0");
        podman(Duration.ofMinutes(2), "system", "reset", "--force");
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is not a test failure
        }
    }

    /** The most processes a container may be given here. */
    static long nprocLimit() {
        return Math.min(hardProcessLimit(), CONMON_NPROC);
    }

    private static long hardProcessLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max processes")) {
                    String hard = line.substring("Max processes".length()).trim().split("\\s+")[1];
                    return "unlimited".equals(hard) ? Long.MAX_VALUE : Long.parseLong(hard);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through: conmon's limit is the bound then
        }
        return Long.MAX_VALUE;
    }
}
