package org.testbed.arm64;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of the arm64 sysroot that need no network: its cache key, its links, finding it. */
class Arm64SysrootTest {
    @TempDir
    Path temp;

    @Test
    void theKeyNamesTheJreAndChangesWithAnyPackageVersion() {
        List<String> versions = List.of("openjdk-17-jre-headless=17.0.21.1+2-1~deb12u1", "libc6=2.36-9+deb12u14");
        String key = Arm64Sysroot.key(versions);
        assertThat(key).startsWith("jre-17.0.21.1_2_1_deb12u1-").matches("[A-Za-z0-9._-]+");
        assertThat(Arm64Sysroot.key(versions)).isEqualTo(key);
        assertThat(Arm64Sysroot.key(List.of(versions.get(0), "libc6=2.36-9+deb12u15"))).isNotEqualTo(key);
    }

    @Test
    void absoluteLinksPointInsideTheSysrootWhereItHasTheTarget() throws IOException {
        Path root = Files.createDirectories(temp.resolve("root"));
        Path config = root.resolve("etc/java-17-openjdk/jvm-arm64.cfg");
        Files.createDirectories(config.getParent());
        Files.writeString(config, "-server KNOWN\n");
        Path lib = Files.createDirectories(root.resolve("usr/lib/jvm/java-17-openjdk-arm64/lib"));
        Path inside = Files.createSymbolicLink(lib.resolve("jvm.cfg"), Path.of("/etc/java-17-openjdk/jvm-arm64.cfg"));
        Path hostOnly = Files.createSymbolicLink(lib.resolve("cacerts"), Path.of("/etc/ssl/certs/java/cacerts"));
        Path relative = Files.createSymbolicLink(lib.resolve("relative"), Path.of("jvm.cfg"));

        SysrootLinks.keepInside(root);

        assertThat(Files.readSymbolicLink(inside).isAbsolute()).isFalse();
        assertThat(inside.toRealPath()).isEqualTo(config.toRealPath());
        assertThat(Files.readSymbolicLink(hostOnly)).isEqualTo(Path.of("/etc/ssl/certs/java/cacerts"));
        assertThat(Files.readSymbolicLink(relative)).isEqualTo(Path.of("jvm.cfg"));
    }

    @Test
    void onlyAFinishedSysrootWithAnExecutableJavaCountsAsPrepared() throws IOException {
        Arm64Sysroot sysroot = new Arm64Sysroot(temp.resolve("cache"));
        assertThat(sysroot.prepared()).isEmpty();

        Path unfinished = temp.resolve("cache/jre-1-aaaa");
        Files.createDirectories(unfinished.resolve(Arm64Sysroot.JAVA).getParent());
        Files.writeString(unfinished.resolve(Arm64Sysroot.JAVA), "");
        Files.setPosixFilePermissions(unfinished.resolve(Arm64Sysroot.JAVA), PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(sysroot.prepared()).as("no package list written yet").isEmpty();

        Files.writeString(unfinished.resolve("packages.txt"), "libc6=1\n");
        assertThat(sysroot.prepared()).contains(unfinished);
    }

    @Test
    void theLauncherIsTheEmulatorWithTheSysrootAndItsJava() {
        EmulatedArm64Jvm jvm = new EmulatedArm64Jvm(Path.of("/usr/bin/qemu-aarch64-static"), temp);
        assertThat(jvm.javaCommand()).containsExactly("/usr/bin/qemu-aarch64-static", "-L", temp.toString(),
                temp.resolve("usr/lib/jvm/java-17-openjdk-arm64/bin/java").toString());
    }

    @Test
    void withoutTheEmulatorTheReasonSaysWhatToInstall() {
        EmulatedArm64Jvm.Availability none = EmulatedArm64Jvm.locate(Optional.empty(), new Arm64Sysroot(temp), System.out);
        assertThat(none).isInstanceOfSatisfying(EmulatedArm64Jvm.Missing.class,
                missing -> assertThat(missing.reason()).contains("qemu-aarch64-static").contains("apt-get install qemu-user-static"));
    }

    @Test
    void withTheEmulatorAndAPreparedSysrootTheJvmIsAvailableWithoutFetchingAnything() throws IOException {
        Path prepared = temp.resolve("cache/jre-1-bbbb");
        Path java = prepared.resolve(Arm64Sysroot.JAVA);
        Files.createDirectories(java.getParent());
        Files.writeString(java, "");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(prepared.resolve("packages.txt"), "libc6=1\n");
        Path emulator = Path.of("/usr/bin/qemu-aarch64-static");

        EmulatedArm64Jvm.Availability found = EmulatedArm64Jvm.locate(Optional.of(emulator), new Arm64Sysroot(temp.resolve("cache")), System.out);

        assertThat(found).isEqualTo(new EmulatedArm64Jvm.Available(new EmulatedArm64Jvm(emulator, prepared)));
    }
}
