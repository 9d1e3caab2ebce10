package org.testbed.runfolder.environment;

import java.util.Optional;

/**
 * environment.json's {@code pinning}: the CPUs each process of the run was given with taskset, so
 * that the server's figures can be read as those of its own cores (an empty list means not pinned).
 *
 * @param serverCpus the server's CPUs
 * @param memcachedCpus memcached's CPUs
 * @param loadCpus the load driver's (and the runner's) CPUs
 * @param description the pinning in one sentence, as the console and the report show it
 * @param allowedCpus the runner's own allowed CPUs ({@code Cpus_allowed_list}, as {@code [0, 1]}) when it gathered
 *                    the environment, which is after it pinned itself to the load CPUs
 * @param serverMachine in a two-machine run: that the server's machine is not pinned by the runner
 */
@EnvironmentSection
public record PinningSection(String serverCpus, String memcachedCpus, String loadCpus, String description,
                             String allowedCpus, Optional<String> serverMachine) {

    /** The same, with a note on the server's machine of a two-machine run. */
    public PinningSection withServerMachine(String note) {
        return new PinningSection(serverCpus, memcachedCpus, loadCpus, description, allowedCpus, Optional.of(note));
    }
}
