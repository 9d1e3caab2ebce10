package org.testbed.runner.step;

import java.util.ArrayList;
import java.util.List;
import org.testbed.runfolder.Conditions;

/** The flags every variant is started with besides where it listens and its memcached, wherever it runs. */
final class ServerFlags {
    private ServerFlags() {
    }

    /** The threads and the run's conditions. */
    static List<String> of(RunSettings settings) {
        List<String> flags = new ArrayList<>(List.of("--threads", Integer.toString(settings.servers().threads())));
        flags.addAll(conditions(settings.conditions()));
        return flags;
    }

    /**
     * The server flags of the run's conditions: {@code --tls}, {@code --gzip}, {@code --metrics}, and
     * {@code --work-us N} for a planted work (TESTBED_WORK_US; a flag, as the others, so that it wins
     * over whatever the server's environment says, on this machine or another).
     */
    static List<String> conditions(Conditions conditions) {
        List<String> flags = new ArrayList<>();
        if (conditions.tls()) {
            flags.add("--tls");
        }
        if (conditions.gzip()) {
            flags.add("--gzip");
        }
        if (conditions.metrics()) {
            flags.add("--metrics");
        }
        conditions.work().ifPresent(work -> flags.addAll(List.of("--work-us", Integer.toString(work.micros()))));
        return flags;
    }
}
