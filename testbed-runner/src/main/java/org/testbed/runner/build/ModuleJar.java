package org.testbed.runner.build;

/** A jar a module's build produces, {@code jar} relative to the repository root (as variants.conf has it). */
public record ModuleJar(String module, String jar) {
}
