package org.testbed.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testbed.arm64.Arm64Sysroot;
import org.testbed.arm64.EmulatedArm64Jvm;
import org.testbed.variant.Jdks;
import org.testbed.variant.Variant;

/** The JVM a suite starts its variants on: the host's own, or an aarch64 one under emulation. */
enum VariantJvm {
    /** A JDK of this machine new enough for the variant ({@link Jdks}). */
    HOST {
        @Override
        List<String> launcher(Variant variant) {
            return List.of(Jdks.javaFor(variant.minJdk())
                    .orElseThrow(() -> new IllegalStateException(variant.name() + ": " + Jdks.missing(variant.minJdk())))
                    .toString());
        }

        @Override
        List<String> options() {
            return List.of("-Xmx256m");
        }

        @Override
        Duration startTimeout() {
            return Duration.ofSeconds(60);
        }

        @Override
        Duration requestTimeout() {
            return HttpProbe.REQUEST_TIMEOUT;
        }
    },

    /**
     * Debian's arm64 OpenJDK 17 under QEMU's user-mode emulator ({@link EmulatedArm64}). It prints
     * its system properties at start ({@code os.arch} among them, into the variant's log) and
     * compiles with C1 only: C2 compiles, emulated, would cost minutes of CPU for code that the few
     * requests of the suite never make hot.
     */
    EMULATED_ARM64 {
        @Override
        List<String> launcher(Variant variant) {
            if (variant.minJdk() > Arm64Sysroot.JDK_FEATURE) {
                throw new IllegalStateException(variant.name() + " needs JDK " + variant.minJdk()
                        + "; the emulated arm64 JVM is a " + Arm64Sysroot.JDK_FEATURE);
            }
            if (EmulatedArm64.availability() instanceof EmulatedArm64Jvm.Available available) {
                return available.jvm().javaCommand();
            }
            throw new IllegalStateException("no emulated arm64 JVM: " + EmulatedArm64.skipReason());
        }

        @Override
        List<String> options() {
            List<String> options = new ArrayList<>(HOST.options());
            options.addAll(List.of("-XshowSettings:properties", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
            return options;
        }

        @Override
        Duration startTimeout() {
            return Duration.ofSeconds(180);
        }

        /** A first request runs cold, interpreted and emulated: 15 s seen on a loaded 2-core machine. */
        @Override
        Duration requestTimeout() {
            return Duration.ofSeconds(60);
        }
    };

    /** What stands where {@code java} would: the launcher's words. */
    abstract List<String> launcher(Variant variant);

    /** JVM options before {@code -jar}. */
    abstract List<String> options();

    /** How long the variant may take to print its ready line. */
    abstract Duration startTimeout();

    /** How long one request to it may take before the suite calls it hung. */
    abstract Duration requestTimeout();
}
