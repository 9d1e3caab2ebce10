package org.testbed.runfolder.environment;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Optional;

/**
 * environment.json's {@code run}: the plan (its keys come first, at this level), then what the run
 * learned as it went. The optional parts are absent until the run got there: the two-machine
 * topology once the server's machine answered, memcached once it was started or chosen, and the
 * outcome (finish time, wall time, flame graphs, counters, problems, skipped variants) at the end.
 *
 * @param plan what the run was asked to do
 * @param mixedJdks whether the variants ran on different JDKs (the report flags it)
 * @param topology with {@code --server-host}: which machine ran the server and which the load
 * @param serverHost with {@code --server-host}: the server's machine as ssh reaches it
 * @param memcachedServers the MEMCACHED_SERVERS the variants used
 * @param memcachedStartedByRunner whether the runner started that memcached (else it was given)
 * @param finishedAt when the run ended, ISO-8601 in UTC
 * @param wallTimeS the run's wall time, in seconds
 * @param flamegraph with {@code --flamegraph}: the profiler, its mode and sampling event
 * @param counters with {@code --counters}: what perf may count on this machine
 * @param problems what went wrong (a variant that did not start, a lost server machine), empty when nothing did
 * @param skipped the variants left out for want of a suitable JDK, with the reason
 */
@EnvironmentSection
public record RunSection(@JsonUnwrapped RunPlan plan, boolean mixedJdks, Optional<String> topology,
                         Optional<String> serverHost, Optional<String> memcachedServers,
                         Optional<Boolean> memcachedStartedByRunner, Optional<String> finishedAt, Optional<Long> wallTimeS,
                         Optional<String> flamegraph, Optional<CounterSetup> counters, Optional<List<String>> problems,
                         Optional<List<String>> skipped) {

    /** The run as it starts: its plan, nothing learned yet. */
    public static RunSection planned(RunPlan plan, boolean mixedJdks) {
        return new RunSection(plan, mixedJdks, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** With the server on another machine, {@code serverHost}, and the load from this one. */
    public RunSection onTwoMachines(String newTopology, String newServerHost) {
        return new RunSection(plan, mixedJdks, Optional.of(newTopology), Optional.of(newServerHost), memcachedServers,
                memcachedStartedByRunner, finishedAt, wallTimeS, flamegraph, counters, problems, skipped);
    }

    /** With the memcached the variants use, and whether the runner started it. */
    public RunSection withMemcached(String servers, boolean startedByRunner) {
        return new RunSection(plan, mixedJdks, topology, serverHost, Optional.of(servers), Optional.of(startedByRunner),
                finishedAt, wallTimeS, flamegraph, counters, problems, skipped);
    }

    /**
     * The run as it ended.
     *
     * @param end when it ended, ISO-8601 in UTC
     * @param wallSeconds how long it took
     */
    public RunSection finished(String end, long wallSeconds, Optional<String> flamegraphs, Optional<CounterSetup> perf,
                               List<String> whatWentWrong, List<String> skippedVariants) {
        return new RunSection(plan, mixedJdks, topology, serverHost, memcachedServers, memcachedStartedByRunner,
                Optional.of(end), Optional.of(wallSeconds), flamegraphs, perf, Optional.of(List.copyOf(whatWentWrong)),
                Optional.of(List.copyOf(skippedVariants)));
    }
}
