package org.testbed.runner.deploy;

import java.nio.file.Path;
import org.testbed.variant.Variant;

/** Makes a variant's jar current before it is copied anywhere: built when missing or older than its sources. */
@FunctionalInterface
public interface JarBuild {

    /** Builds {@code variant}'s jar under the repository {@code root} when it is missing or stale. */
    void ensureCurrent(Path root, Variant variant);

    /** For a jar to take as it is (a test that has just packaged it, a machine without Maven). */
    JarBuild AS_IS = (root, variant) -> {
    };
}
