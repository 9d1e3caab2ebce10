package org.testbed.runner.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.testbed.runner.env.JdkInfo;

class JvmEmulationTest {

    @Test
    void anAarch64JvmOnAnX8664MachineIsEmulatedAndSaysByWhat() {
        assertThat(JvmEmulation.of("x86_64", "aarch64", "/usr/bin/qemu-aarch64-static\n")).hasValueSatisfying(e -> {
            assertThat(e.jvmArch()).isEqualTo("aarch64");
            assertThat(e.machineArch()).isEqualTo("x86_64");
            assertThat(e.executable()).isEqualTo("/usr/bin/qemu-aarch64-static");
            assertThat(e.describe()).isEqualTo("aarch64, emulated on x86_64 by /usr/bin/qemu-aarch64-static");
            assertThat(e.caveat()).contains("mechanics, not performance");
        });
    }

    @Test
    void theMachinesOwnArchAndItsThirtyTwoBitModesAreNative() {
        assertThat(JvmEmulation.of("x86_64", "x86_64", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java")).isEmpty();
        assertThat(JvmEmulation.of("x86_64", "i386", "/opt/jdk32/bin/java")).isEmpty();
        assertThat(JvmEmulation.of("aarch64", "arm", "/opt/jdk32/bin/java")).isEmpty();
        assertThat(JvmEmulation.of("aarch64", "x86_64", "")).as("the other way round, the executable unknown")
                .hasValueSatisfying(e -> assertThat(e.describe()).isEqualTo("x86_64, emulated on aarch64"));
    }

    @Test
    void aJvmThatDidNotSayItsArchIsNotCalledEmulated() {
        assertThat(JvmEmulation.of("x86_64", "", "/usr/bin/qemu-aarch64-static")).isEmpty();
    }

    @Test
    void theJdkProbeNamesItsArchAsUnameDoes() {
        JdkInfo amd64 = JdkInfo.parse("java", "    java.specification.version = 17\n    os.arch = amd64\n");
        JdkInfo arm64 = JdkInfo.parse("java", "    java.specification.version = 17\n    os.arch = aarch64\n");
        assertThat(amd64.osArch()).isEqualTo("x86_64");
        assertThat(arm64.osArch()).isEqualTo("aarch64");
        assertThat(JdkInfo.parse("java", "java.specification.version = 11\n").osArch()).isEmpty();
    }
}
