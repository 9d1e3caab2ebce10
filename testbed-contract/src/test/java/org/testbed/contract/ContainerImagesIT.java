package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.variant.Variant;

/**
 * docker/Dockerfile built with podman for one variant of each jar of {@code variants.conf}, from
 * base images made here without a registry ({@link LocalBaseImages}), then run beside a Memcached
 * container in a pod whose port is published on 127.0.0.1: the image's own HEALTHCHECK passes,
 * health, PUT and GET answer through the published port, and a variant promising native epoll
 * logs it. Every container and image is removed after each family, also when a check fails.
 *
 * <p>The base is Debian 12's JRE 17 (it has no 21), so a family's variant is its first that runs on
 * 17; {@link ContainerStackIT} checks that the Dockerfile refuses a virtual-thread variant on it.
 */
@ParameterizedClass(allowZeroInvocations = true)
@MethodSource("families")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(ContractSummary.class)
class ContainerImagesIT {
    private static final Duration START_LIMIT = Duration.ofSeconds(90);
    private static PodmanLab lab;
    private static String tag;
    private static String pod;
    private static int port;
    private static HttpProbe http;

    private final Variant variant;
    private final ContractChecks checks;

    ContainerImagesIT(Variant variant) {
        this.variant = variant;
        this.checks = new ContractChecks(http, variant.name());
    }

    static Stream<Arguments> families() {
        return JarsBeyondJdk.firstRunnablePerJar(PodmanLab.SUITE, 17, "the base images' JRE");
    }

    @BeforeAll
    static void requirePodman() {
        String reason = PodmanLab.skipReason();
        if (reason != null) {
            ContractSummary.skipped(PodmanLab.SUITE, reason);
        }
        Assumptions.assumeTrue(reason == null, reason);
        lab = PodmanLab.get();
    }

    @BeforeParameterizedClassInvocation
    static void buildAndStart(Variant variant) throws Exception {
        ContractSummary.begin(variant.name());
        tag = "localhost/testbed-it/" + variant.name() + ":test";
        pod = "testbed-it-" + variant.name();
        port = PodmanLab.freePort();
        http = new HttpProbe(URI.create("http://127.0.0.1:" + port));
        long started = System.nanoTime();
        lab.build(tag, variant.name(), "linux/amd64", PodmanLab.BASE_AMD64);
        ContractSummary.note("built in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s");
        started = System.nanoTime();
        PodStarter.start(lab, pod, port, tag, PodmanLab.BASE_AMD64);
        PodStarter.awaitHealth(lab, pod, http, START_LIMIT);
        ContractSummary.note("healthy in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s");
    }

    @AfterParameterizedClassInvocation
    static void removeAndEnd() {
        if (lab != null) {
            PodStarter.remove(lab, pod, tag);
        }
        ContractSummary.end(PodmanLab.SUITE);
    }

    @Test
    @Order(1)
    void theImagesOwnHealthcheckPasses() {
        PodmanLab.Result result = lab.podman(Duration.ofSeconds(30), "healthcheck", "run", PodStarter.server(pod));
        assertThat(result.exitCode()).as("podman healthcheck run: " + result.output()).isZero();
    }

    @Test
    @Order(1)
    void theServerRunsAsTheImagesUnprivilegedUser() {
        assertThat(lab.podmanOk(Duration.ofSeconds(30), "exec", PodStarter.server(pod), "id", "-u")).isEqualTo("10001");
    }

    @Test
    @Order(2)
    void healthIsUpAndNamesTheVariant() {
        checks.healthIsUpAndNamesTheVariant();
    }

    @Test
    @Order(2)
    void putCreatesTheItemWithLocationAndEtag() {
        checks.putCreatesTheItemWithLocationAndEtag();
    }

    @Test
    @Order(2)
    void getReturnsTheStoredItemWithTheEtagOfItsWrite() {
        checks.getReturnsTheStoredItemWithTheEtagOfItsWrite();
    }

    /**
     * The server started cleanly in the container, and one promising native epoll (Vert.x bundles
     * Netty's library) loaded it there rather than falling back to Java NIO.
     */
    @Test
    @Order(3)
    void theLogHasNoErrorAndNamesEpollWhenPromised() {
        String log = PodStarter.log(lab, pod);
        assertThat(log).as("the server's log").doesNotContain(" ERROR ").doesNotContain("Exception");
        if (variant.description().contains("native epoll")) {
            assertThat(log).contains("transport epoll");
            ContractSummary.note("transport epoll");
        }
    }
}
