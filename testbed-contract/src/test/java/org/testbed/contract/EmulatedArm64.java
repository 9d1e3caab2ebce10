package org.testbed.contract;

import org.testbed.arm64.Arm64Sysroot;
import org.testbed.arm64.EmulatedArm64Jvm;
import org.testbed.arm64.EmulatedArm64Jvm.Availability;

/**
 * This test run's emulated arm64 JVM, looked for (and its sysroot built, if this machine can and
 * has none cached) once per run.
 */
final class EmulatedArm64 {
    private static Availability availability;

    private EmulatedArm64() {
    }

    static synchronized Availability availability() {
        if (availability == null) {
            availability = EmulatedArm64Jvm.locate(Arm64Sysroot.inUserCache(), System.out);
        }
        return availability;
    }

    /** Why there is no emulated JVM here; null if there is one. */
    static String skipReason() {
        return availability() instanceof EmulatedArm64Jvm.Missing missing ? missing.reason() : null;
    }
}
