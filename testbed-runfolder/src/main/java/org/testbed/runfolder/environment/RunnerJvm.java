package org.testbed.runfolder.environment;

/**
 * environment.json's {@code runner_jvm}: the JVM the runner and its load driver ran on (not the
 * variants': those are in {@code jdks}).
 *
 * @param version {@code java.runtime.version}
 * @param vendor {@code java.vendor}
 */
@EnvironmentSection
public record RunnerJvm(String version, String vendor) {

    /** The JVM running this code. */
    public static RunnerJvm current() {
        return new RunnerJvm(System.getProperty("java.runtime.version"), System.getProperty("java.vendor"));
    }
}
