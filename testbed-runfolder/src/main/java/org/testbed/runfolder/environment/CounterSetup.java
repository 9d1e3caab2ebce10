package org.testbed.runfolder.environment;

import java.util.List;
import java.util.Optional;

/**
 * environment.json's {@code run.counters} of a {@code --counters} run: what perf may count, so that a
 * counter shown as n/a in counters.csv can be explained by the machine (no perf, a paranoid kernel,
 * no hardware PMU in a VM).
 *
 * @param perf the perf binary, or why there is none
 * @param perfEventParanoid {@code kernel.perf_event_paranoid=N}
 * @param hardwarePmu whether the kernel shows a hardware PMU (cycles and instructions can be counted)
 * @param events the events asked for
 * @param where in a two-machine run: which machine perf stat ran on, since the facts above are the load machine's
 */
@EnvironmentSection
public record CounterSetup(String perf, String perfEventParanoid, boolean hardwarePmu, List<String> events,
                           Optional<String> where) {

    /** The same, with where perf stat ran. */
    public CounterSetup ranOn(String whereItRan) {
        return new CounterSetup(perf, perfEventParanoid, hardwarePmu, events, Optional.of(whereItRan));
    }
}
