package org.testbed.runfolder.environment;

/**
 * A variant of the run as {@code variants.conf} describes it: an entry of environment.json's
 * {@code manifest}.
 *
 * @param name the variant's name
 * @param module its Maven module
 * @param jar its jar, relative to the repository
 * @param mode how it serves: {@code sync}, {@code async}...
 * @param minJdk the oldest JDK it runs on
 * @param description what it is, in one line
 */
@EnvironmentSection
public record ManifestEntry(String name, String module, String jar, String mode, int minJdk, String description) {
}
