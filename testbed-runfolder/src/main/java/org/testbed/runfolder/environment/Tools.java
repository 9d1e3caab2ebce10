package org.testbed.runfolder.environment;

/**
 * environment.json's {@code tools}: the versions of the programs a run starts besides the variants.
 *
 * @param wrk wrk's version line, or {@code not installed}
 * @param memcached {@code memcached -V}
 * @param taskset whether taskset is there (without it nothing is pinned)
 */
@EnvironmentSection
public record Tools(String wrk, String memcached, boolean taskset) {
}
