package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
import org.testbed.arm64.Arm64Sysroot;
import org.testbed.variant.Variant;

/**
 * One variant of each server jar on an aarch64 JVM (Debian's arm64 OpenJDK 17 under QEMU's
 * user-mode emulator), through a subset of the contract: that the JVM is aarch64 and every native
 * library it loaded is, that a variant announcing Netty's native epoll transport runs the aarch64
 * build of it, CRUD, ETags and If-Match, problem bodies for bad input, and Memcached dead (503 fast,
 * then recovery). It proves the mechanics of an arm64 machine (native libraries, architecture
 * detection), not its performance: emulation is tens of times slower than the host.
 *
 * <p>A family is a jar of {@code variants.conf}; its variant is the first of its lines that runs on
 * JDK {@value Arm64Sysroot#JDK_FEATURE} (Debian 12 arm64 has no JDK 21, so no virtual-thread variant).
 * Where this machine has no emulator or arm64 JVM the whole suite is skipped, with the reason in the
 * contract summary.
 */
@ParameterizedClass(allowZeroInvocations = true)
@MethodSource("families")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(ContractSummary.class)
@StartedVariant(jvm = VariantJvm.EMULATED_ARM64, log = "arm64")
class EmulatedArm64IT {
    static final String SUITE = "arm64 emulated";
    private static final Pattern OS_ARCH = Pattern.compile("^\\s*os\\.arch = (\\S+)\\s*$", Pattern.MULTILINE);
    private static final Pattern TRANSPORT = Pattern.compile("\\btransport (\\w+)");
    private static final String NETTY_TRANSPORT_LIBRARY = "libnetty_transport_native_";
    private static boolean started;

    private final Variant variant;
    private final RunningVariant running;
    private final ContractChecks checks;

    EmulatedArm64IT(Variant variant, RunningVariant running) {
        this.variant = variant;
        this.running = running;
        this.checks = new ContractChecks(running.http, variant.name());
    }

    static Stream<Arguments> families() {
        return JarsBeyondJdk.firstRunnablePerJar(SUITE, Arm64Sysroot.JDK_FEATURE, "Debian 12's arm64 JVM");
    }

    @BeforeAll
    static void requireTheEmulatedJvm() {
        String reason = EmulatedArm64.skipReason();
        if (reason != null) {
            ContractSummary.skipped(SUITE, reason);
        }
        Assumptions.assumeTrue(reason == null, reason);
    }

    @BeforeParameterizedClassInvocation
    static void begin(Variant variant) {
        ContractSummary.begin(variant.name());
        started = false;
    }

    @AfterParameterizedClassInvocation
    static void end() {
        if (!started) {
            ContractSummary.note("did not start or is not aarch64 (see target/variant-logs)");
        }
        ContractSummary.end(SUITE);
    }

    @Test
    @Order(1)
    void theJvmIsAarch64AndEveryNativeLibraryItLoadedIsToo() throws IOException {
        Matcher arch = OS_ARCH.matcher(log());
        assertThat(arch.find()).as("os.arch among the properties the JVM printed at start").isTrue();
        assertThat(arch.group(1)).as("os.arch").isEqualTo("aarch64");

        List<String> libraries = MappedLibraries.of(running.process.pid());
        assertThat(libraries).as("libraries mapped by the emulated process").anyMatch(library -> library.endsWith("/libjvm.so"));
        int checked = 0;
        for (String library : libraries) {
            Optional<Integer> machine = MappedLibraries.machineOf(library);
            if (machine.isPresent()) {
                assertThat(machine.get()).as("ELF machine of %s", library).isEqualTo(MappedLibraries.AARCH64);
                checked++;
            }
        }
        ContractSummary.note("started in " + running.startedIn.toSeconds() + " s");
        ContractSummary.note("os.arch aarch64");
        ContractSummary.note(checked + " native libraries aarch64");
        started = true;
    }

    /**
     * A variant whose description promises native epoll (Vert.x) must announce it and have mapped
     * Netty's aarch64 library: its jar bundles one per architecture, and a wrong pick or a silent
     * fall-back to Java NIO is what an arm64 machine would reveal first.
     */
    @Test
    @Order(2)
    void aNativeTransportIsTheAarch64One() throws IOException {
        List<String> transports = MappedLibraries.of(running.process.pid()).stream()
                .filter(library -> library.contains(NETTY_TRANSPORT_LIBRARY)).toList();
        boolean promised = variant.description().contains("native epoll");
        if (!promised && transports.isEmpty()) {
            ContractSummary.note("no native transport");
            Assumptions.abort(variant.name() + " uses no native transport");
        }
        Matcher announced = TRANSPORT.matcher(log());
        assertThat(announced.find()).as("the variant's log names its transport").isTrue();
        assertThat(announced.group(1)).as("transport").isEqualTo("epoll");
        assertThat(transports).as("Netty native transport libraries mapped").isNotEmpty()
                .allMatch(library -> library.contains("epoll_aarch_64"), "the aarch64 epoll build");
        // Netty unpacks the library under a random suffix: libnetty_transport_native_epoll_aarch_64123.so
        ContractSummary.note("transport epoll (" + transports.get(0).replaceAll(".*/", "").replaceAll("(aarch_64)\\d*\\.so.*", "$1.so") + ")");
    }

    @Test
    @Order(3)
    void putCreatesTheItemWithLocationAndEtag() {
        checks.putCreatesTheItemWithLocationAndEtag();
    }

    @Test
    @Order(3)
    void getReturnsTheStoredItemWithTheEtagOfItsWrite() {
        checks.getReturnsTheStoredItemWithTheEtagOfItsWrite();
    }

    @Test
    @Order(3)
    void getOfAnAbsentItemIs404() {
        checks.getOfAnAbsentItemIs404();
    }

    @Test
    @Order(3)
    void postReplacesTheItemAndChangesItsEtag() {
        checks.postReplacesTheItemAndChangesItsEtag();
    }

    @Test
    @Order(3)
    void ifMatchIsACompareAndSwap() {
        checks.ifMatchIsACompareAndSwap();
    }

    @Test
    @Order(3)
    void deleteRemovesTheItem() {
        checks.deleteRemovesTheItem();
    }

    @Test
    @Order(3)
    void rejectedUpdatesLeaveTheItemAsItWas() {
        checks.rejectedUpdatesLeaveTheItemAsItWas();
    }

    @Test
    @Order(3)
    void bodiesThatAreNotJsonAre415AndStoreNothing() {
        checks.bodiesThatAreNotJsonAre415AndStoreNothing();
    }

    @Test
    @Order(3)
    void healthIsUpAndNamesTheVariant() {
        checks.healthIsUpAndNamesTheVariant();
    }

    @Test
    @Order(4)
    void aDeadMemcachedGives503FastAndTheServiceRecoversWhenItIsBack() {
        FaultDrill drill = new FaultDrill(running);
        drill.dead(drill::assertDeadContract);
    }

    private String log() throws IOException {
        return Files.readString(running.process.log(), StandardCharsets.UTF_8);
    }
}
