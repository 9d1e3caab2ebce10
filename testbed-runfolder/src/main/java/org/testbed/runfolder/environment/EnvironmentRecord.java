package org.testbed.runfolder.environment;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run folder's {@code environment.json}: what the studies used to copy by hand, so that a result
 * can be read (and two runs compared) without asking what the machine was. The runner writes it at
 * the start of a run, again once it reaches the server's machine of a two-machine run, and at the
 * end with the run's outcome; the report shows it and compare sets two of them side by side.
 *
 * @param run the settings the run was started with, and at the end its timings and problems
 * @param pinning which CPUs the server, memcached and the load driver were given
 * @param machine the machine the runner ran on (the load machine of a two-machine run)
 * @param jdks the JDKs the variants ran on, with the flags they ended up with (none listed here in
 *             a two-machine run: the server's machine chooses them, see {@code server_machine})
 * @param runnerJvm the JVM the runner itself ran on
 * @param variantJdks each variant's JDK version, by variant name
 * @param tools the versions of the tools the run used
 * @param manifest the variants of the run, as {@code variants.conf} describes them
 * @param serverMachine with {@code --server-host}: the server's machine
 * @param networkPath with {@code --server-host}: the network between the two machines
 * @param price with {@code --price-per-hour} or {@code --prices} (or priced later by {@code report}): the server
 *              machine's price and the server's share of it, from which each step's cost is computed
 */
@EnvironmentSection
public record EnvironmentRecord(RunSection run, PinningSection pinning, MachineSection machine, List<JdkSection> jdks,
                                RunnerJvm runnerJvm, Map<String, String> variantJdks, Tools tools,
                                List<ManifestEntry> manifest, Optional<ServerMachineSection> serverMachine,
                                Optional<NetworkPathSection> networkPath, Optional<PriceSection> price) {

    public EnvironmentRecord {
        price = price == null ? Optional.empty() : price;
    }

    /** A one-machine run's environment: no server machine, no network path. */
    public static EnvironmentRecord oneMachine(RunSection run, PinningSection pinning, MachineSection machine,
                                               List<JdkSection> jdks, RunnerJvm runnerJvm, Map<String, String> variantJdks,
                                               Tools tools, List<ManifestEntry> manifest) {
        return new EnvironmentRecord(run, pinning, machine, jdks, runnerJvm, variantJdks, tools, manifest, Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    /** This environment with the run section replaced (the run went on: memcached, the end). */
    public EnvironmentRecord withRun(RunSection newRun) {
        return new EnvironmentRecord(newRun, pinning, machine, jdks, runnerJvm, variantJdks, tools, manifest, serverMachine,
                networkPath, price);
    }

    /** This environment with the run's price (or without one). */
    public EnvironmentRecord withPrice(Optional<PriceSection> newPrice) {
        return new EnvironmentRecord(run, pinning, machine, jdks, runnerJvm, variantJdks, tools, manifest, serverMachine,
                networkPath, newPrice);
    }

    /**
     * This environment as a two-machine run's: {@code machine} stays the load machine (where the
     * runner ran), {@code server_machine} is the server's, {@code network_path} the way between them.
     */
    public EnvironmentRecord onTwoMachines(RunSection newRun, PinningSection newPinning, MachineSection loadMachine,
                                           ServerMachineSection server, NetworkPathSection network) {
        return new EnvironmentRecord(newRun, newPinning, loadMachine, jdks, runnerJvm, variantJdks, tools, manifest,
                Optional.of(server), Optional.of(network), price);
    }
}
