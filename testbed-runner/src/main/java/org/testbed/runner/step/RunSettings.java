package org.testbed.runner.step;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.testbed.runner.capacity.CapacityPlan;
import org.testbed.results.Conditions;
import org.testbed.runner.host.RemoteHostSettings;
import org.testbed.driver.Level;
import org.testbed.variant.Variant;

/**
 * Everything one {@code ./testbed run} does, decided before it starts.
 *
 * @param root the repository root (variants.conf, the variant jars)
 * @param out the run folder
 * @param runId the run's id (the CSV's run_id, the key space's first part)
 * @param variants the variants to run, in order
 * @param java the JDK launcher for every variant, or null to choose (see {@code JdkChoice})
 * @param scenarios scenario name to its levels, in order
 * @param duration each step's measured window
 * @param warmup load applied before a scenario's first step, not measured
 * @param profile the profile whose defaults were used
 * @param pinning CPUs for server, memcached and load
 * @param flamegraph the flame graph per step: {@code cpu} (on-CPU, with user-only and kernel-only views),
 *                   {@code wall} (wall clock: where threads wait too), or null for none
 * @param driver {@code auto}, {@code testbed-nio} or {@code wrk}
 * @param threads worker threads of the sync variants (TESTBED_THREADS)
 * @param delayMs the delay scenario's simulated I/O
 * @param payloadSize payload bytes of written items
 * @param maxConnections the open model's connection cap
 * @param timeout per-request timeout of the driver
 * @param saturationPct driver CPU share (of its CPUs) above which a step is flagged
 * @param jvmArgs JVM options for every variant
 * @param memcachedServers MEMCACHED_SERVERS to use, or null to start a private memcached
 * @param commandLine the arguments the run was started with, for environment.json
 * @param repeat the forks: how many freshly started servers measure every step, each warmed up once
 * @param iterations how many samples each fork measures of every step, one after another
 * @param mixedJdks run each variant on its oldest suitable JDK instead of one shared JDK 21+
 * @param counters whether to count the server's events with perf stat during each step ({@code counters.csv})
 * @param conditionSets HTTPS ({@code --tls}), gzip ({@code --gzip}) and metrics ({@code --metrics}): how every
 *                      variant is started and driven; with several ({@code --conditions plain,tls}) every variant
 *                      is run under each in turn, started afresh for each
 * @param capacity with {@code --sla}: the capacity search each scenario runs instead of its levels; else null
 * @param serverHost the server's machine ({@code --server-host}): each variant is deployed and read there and
 *                   driven from here; null to run everything on this machine
 */
public record RunSettings(Path root, Path out, String runId, List<Variant> variants, Path java,
                          Map<String, List<Level>> scenarios, Duration duration, Duration warmup, Duration warmupAtLeast, String profile,
                          Pinning pinning, String flamegraph, String driver, int threads, int delayMs,
                          int payloadSize, int maxConnections, Duration timeout, double saturationPct,
                          List<String> jvmArgs, String memcachedServers, List<String> commandLine,
                          int repeat, int iterations, boolean mixedJdks, boolean counters, List<Conditions> conditionSets,
                          CapacityPlan capacity, RemoteHostSettings serverHost) {

    public RunSettings {
        conditionSets = conditionSets == null || conditionSets.isEmpty() ? List.of(Conditions.PLAIN) : List.copyOf(conditionSets);
    }

    /**
     * The conditions of a variant session: the first set. The runner gives each session the settings of
     * one set ({@link #forConditions}).
     */
    public Conditions conditions() {
        return conditionSets.get(0);
    }

    /** These settings with one set of conditions: what one variant session runs under. */
    public RunSettings forConditions(Conditions conditions) {
        return new RunSettings(root, out, runId, variants, java, scenarios, duration, warmup, warmupAtLeast, profile, pinning, flamegraph,
                driver, threads, delayMs, payloadSize, maxConnections, timeout, saturationPct, jvmArgs, memcachedServers,
                commandLine, repeat, iterations, mixedJdks, counters, List.of(conditions), capacity, serverHost);
    }

    /** The conditions as the console and environment.json show them: {@code plain,tls}. */
    public String conditionsLabel() {
        return String.join(",", conditionSets.stream().map(Conditions::label).toList());
    }

    /**
     * What a file of this session's is named after besides its variant, scenario and level: nothing
     * under plain conditions (the names runs have always had), else {@code -tls}, {@code -tls+gzip}.
     */
    public String conditionsSuffix() {
        return conditions().equals(Conditions.PLAIN) ? "" : "-" + conditions().label();
    }

    /**
     * Steps in one pass over the variants (a run makes {@code repeat} passes, and measures each step
     * {@code iterations} times in each); with {@code --sla} the most probes the searches can take.
     */
    public int stepCount() {
        return variants.size() * conditionSets.size() * stepsPerVariant();
    }

    private int stepsPerVariant() {
        if (capacity != null) {
            return scenarios.size() * capacity.maxProbes();
        }
        return scenarios.values().stream().mapToInt(List::size).sum();
    }

    /** Samples in one pass: every step measured {@code iterations} times (a capacity probe once). */
    public int samplesPerPass() {
        return stepCount() * (capacity != null ? 1 : iterations);
    }

    /** Warm-ups in one pass: one per variant, conditions and scenario. */
    public int warmUpsPerPass() {
        return variants.size() * conditionSets.size() * scenarios.size();
    }

    /** The measured windows of one pass, in milliseconds. */
    public long measuredMillisPerPass() {
        return samplesPerPass() * duration.toMillis();
    }
}
