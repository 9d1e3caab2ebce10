package org.testbed.variant;

import java.nio.file.Path;

/**
 * One server variant as {@code variants.conf} describes it: the jar to run, the mode to pass, the
 * oldest JDK that runs it, and a line for people.
 */
public record Variant(String name, String module, String jar, String mode, int minJdk, String description) {

    /** The jar, resolved against the repository root. */
    public Path jarIn(Path repositoryRoot) {
        return repositoryRoot.resolve(jar);
    }
}
