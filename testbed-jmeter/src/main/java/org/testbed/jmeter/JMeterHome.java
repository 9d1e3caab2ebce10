package org.testbed.jmeter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

/**
 * A JMeter installation laid out as JMeter's distribution is: {@code bin/ApacheJMeter.jar} (the
 * launcher, which takes its folder's parent as the home and loads {@code lib/} and {@code lib/ext/})
 * and {@code bin/jmeter.properties}. This module's build assembles one from Maven artifacts in
 * {@code testbed-jmeter/target/jmeter}; {@code JMETER_HOME} may name another (a JMeter 5.6 unpacked
 * from its archive, say).
 */
public record JMeterHome(Path dir) {
    /** Where this module's build lays out the home, relative to the repository root. */
    public static final String BUILT = "testbed-jmeter/target/jmeter";
    /** The launcher, relative to the home. */
    public static final String LAUNCHER = "bin/ApacheJMeter.jar";
    /**
     * This module's jar, relative to the repository root: the build that makes it lays out the home
     * too, so the runner's stale-jar check watches it (the launcher keeps the time stamp it has in
     * the Maven repository, older than any source).
     */
    public static final String MODULE_JAR = "testbed-jmeter/target/testbed-jmeter.jar";

    /** {@code JMETER_HOME} when set, else the home this repository's build assembles under {@code root}. */
    public static JMeterHome find(Path root) {
        String configured = System.getenv("JMETER_HOME");
        if (configured != null && !configured.isBlank()) {
            return new JMeterHome(Path.of(configured.strip()).toAbsolutePath());
        }
        return new JMeterHome(root.resolve(BUILT).toAbsolutePath().normalize());
    }

    public Path launcher() {
        return dir.resolve(LAUNCHER);
    }

    /** JMeter's version, as its launcher's manifest gives it ({@code Implementation-Version}), or {@code unknown}. */
    public String version() {
        try (JarFile jar = new JarFile(launcher().toFile())) {
            String version = jar.getManifest() == null ? null : jar.getManifest().getMainAttributes().getValue("Implementation-Version");
            return version == null ? "unknown" : version;
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /** This home, or a clear error naming what is missing and how to build it. */
    public JMeterHome require() {
        for (Path needed : new Path[] {launcher(), dir.resolve("bin/jmeter.properties"), dir.resolve("lib/ext")}) {
            if (!Files.exists(needed)) {
                throw new IllegalStateException("JMeter cannot start: " + needed + " is missing. Build the JMeter home with"
                        + " './mvnw -pl testbed-jmeter -am package -DskipTests' (./testbed run --driver jmeter does it), or"
                        + " point JMETER_HOME at a JMeter 5.6 installation");
            }
        }
        return this;
    }
}
