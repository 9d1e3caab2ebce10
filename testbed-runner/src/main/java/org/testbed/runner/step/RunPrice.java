package org.testbed.runner.step;

import java.util.Optional;
import org.testbed.runfolder.price.PriceList;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runfolder.price.ServerShare;
import org.testbed.runner.env.Environment;
import org.testbed.runner.host.RemoteHost;

/**
 * The run's price ({@code --price-per-hour}, {@code --prices}) matched to the server's machine, with
 * the server's share of it: on this machine its pinned CPUs out of all of them (or the whole machine
 * when not pinned), on a machine of its own ({@code --server-host}) the whole machine.
 */
public final class RunPrice {
    private RunPrice() {
    }

    /**
     * The price of a run on this machine, checked before it starts: a prices file with no line for
     * this machine stops it with one line saying what to add. Empty without a price.
     */
    public static Optional<Pricing> local(RunSettings settings) {
        return settings.price().map(list -> list.priceFor(
                new PriceList.Machine(Environment.hostName(), Optional.empty(), Environment.cpuModel(), Environment.arch()),
                ServerShare.of(settings.servers().pinning().serverCpus(), Environment.cpus())));
    }

    /** The price of a run whose server is on {@code host}, known once the runner has reached it. */
    static Optional<Pricing> remote(RunSettings settings, RemoteHost host) {
        String destination = host.destination();
        String sshHost = destination.substring(destination.lastIndexOf('@') + 1);
        return settings.price().map(list -> list.priceFor(
                new PriceList.Machine(host.machine().host(), Optional.of(sshHost), host.machine().cpuModel(),
                        host.machine().arch()), ServerShare.ownMachine()));
    }
}
