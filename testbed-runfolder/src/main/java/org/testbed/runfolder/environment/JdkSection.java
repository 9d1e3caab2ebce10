package org.testbed.runfolder.environment;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A JDK a variant ran on, as probed by running it once with the run's JVM options
 * ({@code -XshowSettings:properties -XX:+PrintCommandLineFlags -version}): an entry of
 * environment.json's {@code jdks} and of {@code server_machine.jdks}.
 *
 * @param java the launcher (on the server's machine: {@code PATH on USER@HOST})
 * @param home its {@code java.home}
 * @param feature its feature release, e.g. 21
 * @param vendor {@code java.vendor}
 * @param version {@code java.runtime.version}, the CSV's {@code jdk}
 * @param vmName {@code java.vm.name}; its key is {@code vmName}, as every run folder since the first has it
 * @param flags the flags the JVM chose or was given ({@code -XX:+PrintCommandLineFlags}): collector, heap sizes
 * @param osArch the JVM's own {@code os.arch}, named as {@code uname -m} names it ({@code x86_64}, {@code aarch64}):
 *               the arch of the code it runs, which differs from its machine's {@code arch} under an emulator
 */
@EnvironmentSection
public record JdkSection(String java, String home, int feature, String vendor, String version,
                         @JsonProperty("vmName") String vmName, String flags, String osArch) {
}
