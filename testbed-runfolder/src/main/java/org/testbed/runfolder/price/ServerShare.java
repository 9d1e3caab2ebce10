package org.testbed.runfolder.price;

import java.util.Locale;
import org.testbed.runfolder.CpuList;

/**
 * The share of its machine a server is charged for: its pinned CPUs out of all the machine's CPUs
 * (a server pinned to 1 of 2 CPUs pays half the machine), or the whole machine when it is not pinned
 * (it could use every CPU, and nothing else may be sold beside it) or when it ran on a machine of its
 * own ({@code --server-host}: the load came from elsewhere, the server's machine is all the server's).
 *
 * @param fraction 0 (exclusive) .. 1
 * @param reason why, in words, as environment.json and the report say it
 */
public record ServerShare(double fraction, String reason) {

    public ServerShare {
        if (!(fraction > 0) || fraction > 1) {
            throw new IllegalArgumentException("a server's share of its machine is in (0, 1], not " + fraction);
        }
    }

    /** A server on a machine of its own: the whole machine. */
    public static ServerShare ownMachine() {
        return new ServerShare(1, "the whole machine: the server ran on a machine of its own, the load came from another");
    }

    /**
     * The share of a server on the run's own machine.
     *
     * @param serverCpus the server's taskset CPU list, empty when not pinned
     * @param machineCpus the machine's CPUs (results.csv's {@code cpus}); 0 or less when not known
     */
    public static ServerShare of(String serverCpus, int machineCpus) {
        String cpus = serverCpus == null ? "" : serverCpus.strip();
        if (cpus.isEmpty()) {
            return new ServerShare(1, "the whole machine: the server was not pinned, it could use every CPU");
        }
        int pinned = count(cpus);
        if (machineCpus <= 0) {
            return new ServerShare(1, "the whole machine: the server was pinned to CPUs " + cpus
                    + ", but the machine's CPU count is not known");
        }
        if (pinned >= machineCpus) {
            return new ServerShare(1, String.format(Locale.ROOT, "the whole machine: the server was pinned to all %d CPUs (%s)",
                    machineCpus, cpus));
        }
        return new ServerShare((double) pinned / machineCpus, String.format(Locale.ROOT,
                "the server was pinned to %d of the machine's %d CPUs (%s)", pinned, machineCpus, cpus));
    }

    /** How many CPUs a taskset list such as {@code 0}, {@code 0-3} or {@code 0,2-3} names. */
    static int count(String list) {
        return CpuList.parse(list).size();
    }
}
