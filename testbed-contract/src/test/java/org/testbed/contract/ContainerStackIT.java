package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testbed.variant.Variant;

/**
 * The container set-up beyond one image: docker/compose.yaml brought up through podman's Docker API
 * with Debian's docker-compose (Memcached and Vert.x, health and CRUD through the published port,
 * then down), the arm64 image of the multi-arch build ({@code docker/docker-bake.hcl}'s second
 * platform) built and run under QEMU, and the Dockerfile's refusal of a JRE older than a variant
 * needs. Each writes one line to the contract summary; a missing capability is a skip said there.
 */
class ContainerStackIT {
    private static final String VARIANT = "vertx";
    private static PodmanLab lab;

    @BeforeAll
    static void requirePodman() {
        String reason = PodmanLab.skipReason();
        if (reason != null) {
            ContractSummary.skipped(PodmanLab.SUITE + " (compose)", reason);
        }
        Assumptions.assumeTrue(reason == null, reason);
        lab = PodmanLab.get();
    }

    /**
     * The build context holds the selected variants' jars only ({@code -Dtestbed.variants}), so a
     * check of {@value #VARIANT}'s image runs when it is among them, and says it skipped otherwise.
     */
    private static void requireTheVariantSelected(String subject) {
        boolean selected = ContractVariants.selected().stream().anyMatch(variant -> variant.name().equals(VARIANT));
        if (!selected) {
            ContractSummary.skipped(PodmanLab.SUITE + " (" + subject + ")", VARIANT + " is not among -Dtestbed.variants");
        }
        Assumptions.assumeTrue(selected, VARIANT + " is not among the selected variants");
    }

    @Test
    void theComposeFileBringsUpMemcachedAndAVariantThatServesThroughItsPublishedPort() throws Exception {
        String subject = "compose " + VARIANT;
        requireTheVariantSelected(subject);
        List<String> notes = new ArrayList<>();
        Path socket = lab.dir.resolve("podman.sock");
        String image = "localhost/testbed-it/" + VARIANT + ":compose";
        int port = PodmanLab.freePort();
        Process service = null;
        List<String> compose = composeCommand();
        try {
            lab.build(image, VARIANT, "linux/amd64", PodmanLab.BASE_AMD64);
            buildMemcachedImage();
            ProcessBuilder api = new ProcessBuilder("podman", "system", "service", "--time=0", "unix://" + socket)
                    .redirectErrorStream(true).redirectOutput(lab.dir.resolve("podman-service.log").toFile());
            api.environment().putAll(lab.environment());
            service = api.start();
            awaitSocket(socket);

            long started = System.nanoTime();
            AtomicBoolean composing = new AtomicBoolean(true);
            Thread healthchecks = HealthcheckTicker.start(lab, composing);
            PodmanLab.Result up;
            try {
                up = runCompose(compose, socket, port, "--profile", VARIANT, "up", "--detach", "--no-build");
            } finally {
                composing.set(false);
                healthchecks.join(10_000);
            }
            assertThat(up.exitCode()).as("compose up: " + up.output()).isZero();
            HttpProbe http = new HttpProbe(URI.create("http://127.0.0.1:" + port));
            awaitHealth(http);
            notes.add("up and healthy in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s");
            ContractChecks checks = new ContractChecks(http, VARIANT);
            checks.healthIsUpAndNamesTheVariant();
            checks.putCreatesTheItemWithLocationAndEtag();
            checks.getReturnsTheStoredItemWithTheEtagOfItsWrite();
            checks.deleteRemovesTheItem();
            notes.add("health, PUT, GET, DELETE through 127.0.0.1");
            PodmanLab.Result down = runCompose(compose, socket, port, "--profile", VARIANT, "down", "--volumes", "--remove-orphans");
            assertThat(down.exitCode()).as("compose down: " + down.output()).isZero();
            assertThat(lab.podmanOk(Duration.ofSeconds(30), "ps", "--all", "--quiet")).as("containers left after down").isEmpty();
            notes.add("down left no container");
            summarise(subject, notes, null);
        } catch (Throwable failure) {
            summarise(subject, notes, failure);
            throw failure;
        } finally {
            if (service != null) {
                runCompose(compose, socket, port, "--profile", VARIANT, "down", "--volumes", "--remove-orphans");
                service.destroy();
                service.waitFor(10, TimeUnit.SECONDS);
            }
            lab.podman(Duration.ofSeconds(60), "rm", "--all", "--force", "--time", "0");
            lab.podman(Duration.ofSeconds(60), "rmi", "--force", image, MEMCACHED_IMAGE);
        }
    }

    /**
     * {@code --platform linux/arm64} from both bases under one manifest list, as a multi-arch Temurin
     * is on a registry, then run under QEMU beside the amd64 Memcached: health through the published
     * port, aarch64 in the container and to its JVM, Netty's arm64 epoll library loaded.
     */
    @Test
    void theArm64ImageOfTheMultiArchBuildRunsUnderEmulation() throws Exception {
        String subject = "arm64 image " + VARIANT;
        requireTheVariantSelected(subject);
        String reason = Arm64Binfmt.missing();
        if (reason != null) {
            ContractSummary.skipped(PodmanLab.SUITE + " arm64", reason);
        }
        Assumptions.assumeTrue(reason == null, reason);
        List<String> notes = new ArrayList<>();
        String image = "localhost/testbed-it/" + VARIANT + ":arm64";
        String pod = "testbed-it-arm64";
        int port = PodmanLab.freePort();
        try {
            lab.importArm64Base();
            long started = System.nanoTime();
            lab.build(image, VARIANT, "linux/arm64", PodmanLab.BASE_MULTI);
            notes.add("built in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s");
            assertThat(lab.podmanOk(Duration.ofSeconds(30), "image", "inspect", "--format", "{{.Architecture}}", image)).isEqualTo("arm64");
            started = System.nanoTime();
            PodStarter.start(lab, pod, port, image, PodmanLab.BASE_AMD64);
            HttpProbe http = new HttpProbe(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(30));
            PodStarter.awaitHealth(lab, pod, http, Duration.ofSeconds(180));
            notes.add("healthy in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s");
            assertThat(lab.podmanOk(Duration.ofSeconds(60), "exec", PodStarter.server(pod), "uname", "-m")).isEqualTo("aarch64");
            assertThat(lab.podmanOk(Duration.ofSeconds(120), "exec", PodStarter.server(pod), "java", "-XshowSettings:properties", "-version"))
                    .contains("os.arch = aarch64");
            notes.add("uname -m and os.arch aarch64");
            assertThat(PodStarter.log(lab, pod)).contains("transport epoll");
            notes.add("transport epoll");
            ContractChecks checks = new ContractChecks(http, VARIANT);
            checks.putCreatesTheItemWithLocationAndEtag();
            checks.getReturnsTheStoredItemWithTheEtagOfItsWrite();
            notes.add("PUT, GET through 127.0.0.1");
            summarise(subject, notes, null);
        } catch (Throwable failure) {
            summarise(subject, notes, failure);
            throw failure;
        } finally {
            PodStarter.remove(lab, pod, image);
        }
    }

    /** A variant needing a newer Java than the base's fails the build, saying so, rather than the container at start. */
    @Test
    void aVariantNeedingANewerJavaThanTheBaseFailsTheBuild() throws Exception {
        Variant newer = ContractVariants.selected().stream().filter(v -> v.minJdk() > 17).findFirst().orElse(null);
        Assumptions.assumeTrue(newer != null, "every selected variant runs on 17");
        String image = "localhost/testbed-it/" + newer.name() + ":refused";
        try {
            IllegalStateException refused = org.assertj.core.api.Assertions.catchThrowableOfType(IllegalStateException.class,
                    () -> lab.build(image, newer.name(), "linux/amd64", PodmanLab.BASE_AMD64));
            assertThat(refused).as("the build of " + newer.name() + " on a JRE 17").isNotNull();
            assertThat(refused.getMessage()).contains(newer.name() + " needs a Java " + newer.minJdk() + " or newer");
            ContractSummary.line(PodmanLab.SUITE, newer.name() + " on the JRE 17 base refused at build (needs "
                    + newer.minJdk() + "), passed");
        } finally {
            lab.podman(Duration.ofSeconds(60), "rmi", "--force", image);
        }
    }

    static final String MEMCACHED_IMAGE = "docker.io/library/memcached:1.6";

    /**
     * compose.yaml's memcached:1.6 made from the local base (which has Debian's memcached), under the
     * name the Docker API resolves it to, so nothing is pulled: the official image's entrypoint is
     * memcached run as an unprivileged user, taking the service's command as flags.
     */
    private static void buildMemcachedImage() throws IOException {
        Path folder = Files.createDirectories(lab.dir.resolve("memcached-image"));
        Files.writeString(folder.resolve("Containerfile"), "FROM " + PodmanLab.BASE_AMD64 + "\nUSER memcache\nENTRYPOINT [\"memcached\"]\n",
                StandardCharsets.UTF_8);
        lab.podmanOk(Duration.ofMinutes(2), "build", "--format", "docker", "--pull=never", "-t", MEMCACHED_IMAGE, folder.toString());
    }

    private static List<String> composeCommand() {
        return new ArrayList<>(List.of("docker-compose"));
    }

    private static PodmanLab.Result runCompose(List<String> compose, Path socket, int port, String... args) throws IOException {
        Path root = ContractVariants.repositoryRoot();
        Path override = lab.dir.resolve("compose-podman-override.yaml");
        if (!Files.exists(override)) {
            try (var in = ContainerStackIT.class.getResourceAsStream("/compose-podman-override.yaml")) {
                Files.copy(in, override);
            }
        }
        List<String> command = new ArrayList<>(List.of("env", "DOCKER_HOST=unix://" + socket, "COMPOSE_PROJECT_NAME=testbed-it",
                "TESTBED_IMAGE_PREFIX=localhost/testbed-it", "TESTBED_TAG=compose", "VERTX_PORT=" + port,
                "TESTBED_TEST_NOFILE=" + Math.min(OpenFileLimit.ofSelf().hard(), 1048576), "TESTBED_TEST_NPROC=" + PodmanLab.nprocLimit()));
        command.addAll(compose);
        command.addAll(List.of("-f", root.resolve("docker/compose.yaml").toString(), "-f", override.toString()));
        command.addAll(List.of(args));
        return lab.run(command, Duration.ofMinutes(3));
    }

    private static void awaitSocket(Path socket) throws InterruptedException {
        for (int i = 0; i < 100 && !Files.exists(socket); i++) {
            Thread.sleep(100);
        }
        assertThat(socket).as("podman's API socket").exists();
    }

    private static void awaitHealth(HttpProbe http) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            try {
                if (http.get("/testbed/health").status() == 200) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the compose service is not healthy through " + http.base() + " within 90 s");
    }

    /** One line in the contract summary: what the case showed, then "passed" or its failure's first line. */
    private static void summarise(String subject, List<String> notes, Throwable failure) {
        String shown = subject + " " + String.join(", ", notes);
        ContractSummary.line(PodmanLab.SUITE, failure == null ? shown + ", passed"
                : shown + (notes.isEmpty() ? "" : ", ") + "FAILED: " + firstLine(failure));
    }

    private static String firstLine(Throwable failure) {
        String message = String.valueOf(failure.getMessage());
        return message.lines().findFirst().orElse(message);
    }
}
