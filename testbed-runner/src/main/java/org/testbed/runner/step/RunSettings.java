package org.testbed.runner.step;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.driver.Level;
import org.testbed.jmeter.JMeterPlan;
import org.testbed.jmeter.distributed.LoadHosts;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.price.PriceList;
import org.testbed.runfolder.stats.PrecisionTarget;
import org.testbed.runner.capacity.CapacityPlan;
import org.testbed.runner.host.RemoteHostSettings;
import org.testbed.variant.Variant;

/**
 * Everything one {@code ./testbed run} does, decided before it starts, in parts by concern: where
 * it writes, the load it applies, the servers it starts, what it observes besides, and the two
 * optional parts (a capacity search, a server on another machine, a price).
 *
 * @param output where and as what the run is recorded
 * @param load the load every step applies and how often it is measured
 * @param servers how the variants are started
 * @param observation what each step records besides the figures
 * @param conditionSets HTTPS ({@code --tls}), gzip ({@code --gzip}) and metrics ({@code --metrics}): how every
 *                      variant is started and driven; with several ({@code --conditions plain,tls}) every variant
 *                      is run under each in turn, started afresh for each; a store latency ({@code --store-latency})
 *                      is a condition too
 * @param capacity with {@code --sla}: the capacity search each scenario runs instead of its levels
 * @param serverHost with {@code --server-host}: the server's machine, where each variant is deployed and read,
 *                   driven from here
 * @param price with {@code --price-per-hour} or {@code --prices}: what the server's machine costs per hour, matched
 *              to it once it is known ({@link RunPrice}), so that every step gets its cost per million requests
 * @param loadHosts with {@code --load-hosts}: the machines JMeter's engines send the load from (distributed mode)
 * @param precision with {@code --precision}: the intervals the run should reach, and the time it may take to add
 *                  forks for them
 */
public record RunSettings(Output output, Load load, Servers servers, Observation observation,
                          List<Conditions> conditionSets, Optional<CapacityPlan> capacity,
                          Optional<RemoteHostSettings> serverHost, Optional<PriceList> price,
                          Optional<LoadHosts.Settings> loadHosts, Precision precision) {

    /** Settings without a precision target: every step gets the planned forks. */
    public RunSettings(Output output, Load load, Servers servers, Observation observation, List<Conditions> conditionSets,
                       Optional<CapacityPlan> capacity, Optional<RemoteHostSettings> serverHost, Optional<PriceList> price,
                       Optional<LoadHosts.Settings> loadHosts) {
        this(output, load, servers, observation, conditionSets, capacity, serverHost, price, loadHosts, Precision.NONE);
    }

    /** Settings whose load comes from this machine. */
    public RunSettings(Output output, Load load, Servers servers, Observation observation, List<Conditions> conditionSets,
                       Optional<CapacityPlan> capacity, Optional<RemoteHostSettings> serverHost, Optional<PriceList> price) {
        this(output, load, servers, observation, conditionSets, capacity, serverHost, price, Optional.empty());
    }

    /**
     * @param root the repository root (variants.conf, the variant jars)
     * @param out the run folder
     * @param runId the run's id (the CSV's run_id, the key space's first part)
     * @param profile the profile whose defaults were used
     * @param commandLine the arguments the run was started with, for environment.json
     * @param build the fingerprint of the sources the run measures ({@link org.testbed.runner.build.SourceFingerprint}),
     *              empty when not known
     */
    public record Output(Path root, Path out, String runId, String profile, List<String> commandLine, String build) {

        /** A run whose build is not fingerprinted. */
        public Output(Path root, Path out, String runId, String profile, List<String> commandLine) {
            this(root, out, runId, profile, commandLine, "");
        }
    }

    /**
     * @param scenarios scenario name to its levels, in order
     * @param duration each step's measured window
     * @param warmup the longest load applied before a scenario's first step, not measured
     * @param warmupAtLeast the shortest warm-up, steady or not
     * @param repeat the forks: how many freshly started servers measure every step, each warmed up once
     * @param iterations how many samples each fork measures of every step, one after another
     * @param driver {@code auto}, {@code testbed-nio}, {@code wrk} or {@code jmeter}
     * @param delayMs the delay scenario's simulated I/O
     * @param payloadSize payload bytes of written items
     * @param maxConnections the open model's connection cap
     * @param timeout per-request timeout of the driver
     * @param saturationPct driver CPU share (of its CPUs) above which a step is flagged
     * @param pacing with {@code --ramp}/{@code --think} (JMeter only): the realistic users' ramp-up and think time
     * @param interleave whether each pass keeps one JVM of every variant and measures them in turns, in rounds of a new
     *                   random order ({@code InterleavedPass}), rather than one variant after another
     * @param settle unmeasured load on each window's own connections before it opens (the in-JVM driver)
     */
    public record Load(Map<String, List<Level>> scenarios, Duration duration, Duration warmup, Duration warmupAtLeast,
                       int repeat, int iterations, String driver, int delayMs, int payloadSize, int maxConnections,
                       Duration timeout, double saturationPct, JMeterPlan.Pacing pacing, boolean interleave,
                       Duration settle) {

        /** The settle every window has unless the run says otherwise. */
        public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(1);

        /** What one window takes besides its overhead: its settle and its measured time. */
        public Duration window() {
            return duration.plus(settle);
        }

        /** One variant after another. */
        public Load(Map<String, List<Level>> scenarios, Duration duration, Duration warmup, Duration warmupAtLeast,
                    int repeat, int iterations, String driver, int delayMs, int payloadSize, int maxConnections,
                    Duration timeout, double saturationPct, JMeterPlan.Pacing pacing) {
            this(scenarios, duration, warmup, warmupAtLeast, repeat, iterations, driver, delayMs, payloadSize, maxConnections,
                    timeout, saturationPct, pacing, false, DEFAULT_SETTLE);
        }

        /** Users back to back, started at once. */
        public Load(Map<String, List<Level>> scenarios, Duration duration, Duration warmup, Duration warmupAtLeast,
                    int repeat, int iterations, String driver, int delayMs, int payloadSize, int maxConnections,
                    Duration timeout, double saturationPct) {
            this(scenarios, duration, warmup, warmupAtLeast, repeat, iterations, driver, delayMs, payloadSize, maxConnections,
                    timeout, saturationPct, JMeterPlan.Pacing.NONE);
        }
    }

    /**
     * @param variants the variants to run, in order
     * @param java the JDK launcher for every variant, or empty to choose (see {@code JdkChoice})
     * @param mixedJdks run each variant on its oldest suitable JDK instead of one shared JDK 21+
     * @param jvmArgs JVM options for every variant
     * @param threads worker threads of the sync variants (TESTBED_THREADS)
     * @param memcachedServers MEMCACHED_SERVERS to use, or empty to start a private memcached
     * @param pinning CPUs for server, memcached and load
     */
    public record Servers(List<Variant> variants, Optional<Path> java, boolean mixedJdks, List<String> jvmArgs,
                          int threads, Optional<String> memcachedServers, Pinning pinning) {
    }

    /**
     * @param flamegraph the flame graph per step: {@code cpu} (on-CPU, with user-only and kernel-only views)
     *                   or {@code wall} (wall clock: where threads wait too)
     * @param counters whether to count the server's events with perf stat during each step ({@code counters.csv})
     * @param jfr whether to record each step's server with JDK Flight Recorder ({@code jfr.csv}, the recordings in {@code raw/})
     * @param slowMachine {@code --slow-machine}: a window whose server or load CPUs ran under this share of their
     *                    full speed ({@code server_speed}, {@code load_speed}) is left out of its step's figure and
     *                    measured again while the run allows ({@link SlowWindows}); 0 keeps every window
     */
    public record Observation(Optional<String> flamegraph, boolean counters, boolean jfr, double slowMachine) {

        /** With the default {@code --slow-machine}. */
        public Observation(Optional<String> flamegraph, boolean counters, boolean jfr) {
            this(flamegraph, counters, jfr, SlowWindows.DEFAULT_RATIO);
        }

        /** Without flight recordings. */
        public Observation(Optional<String> flamegraph, boolean counters) {
            this(flamegraph, counters, false);
        }
    }

    /**
     * Repetition placed where the uncertainty is: after the planned forks, the run adds forks to the
     * steps whose intervals are wider than {@code target}, the widest per second of cost first
     * ({@code ForkAllocation}), while the run's whole time stays within {@code budget}.
     *
     * @param target the widest intervals allowed, per scenario and figure
     * @param budget the longest the whole run may take, planned forks included; forks are added only while one
     *               more fits. Empty: 1.5 times what the planned forks took
     * @param maxForks the most forks one step may get
     */
    public record Precision(PrecisionTarget target, Optional<Duration> budget, int maxForks) {
        public static final Precision NONE = new Precision(PrecisionTarget.NONE, Optional.empty(), 0);
        /** The most forks a step gets by default: beyond ten, a step that still misses its target has two modes, not noise. */
        public static final int MAX_FORKS = 10;
        /** Without a budget, the whole run may take this many times what its planned forks took. */
        public static final double DEFAULT_BUDGET_FACTOR = 1.5;

        /** Whether forks may be added at all. */
        public boolean active() {
            return target.isPresent() && maxForks > 0;
        }

        /** The whole run's budget once the planned forks took {@code planned}: the one given, else 1.5 times that. */
        public Duration budgetAfter(Duration planned) {
            return budget.orElse(Duration.ofMillis(Math.round(planned.toMillis() * DEFAULT_BUDGET_FACTOR)));
        }
    }

    public RunSettings {
        precision = precision == null ? Precision.NONE : precision;
        conditionSets = conditionSets == null || conditionSets.isEmpty() ? List.of(Conditions.PLAIN) : List.copyOf(conditionSets);
        price = price == null ? Optional.empty() : price;
        loadHosts = loadHosts == null ? Optional.empty() : loadHosts;
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
        return new RunSettings(output, load, servers, observation, List.of(conditions), capacity, serverHost, price, loadHosts,
                precision);
    }

    /**
     * These settings for a fork added to one scenario's steps: that scenario alone, measured
     * {@code iterations} times, the fork numbered {@code fork} (the planned forks are 1..{@code repeat}).
     */
    public RunSettings forAddedFork(String scenario, int fork, int iterations) {
        Load l = new Load(Map.of(scenario, load.scenarios().get(scenario)), load.duration(), load.warmup(), load.warmupAtLeast(),
                Math.max(fork, load.repeat()), iterations, load.driver(), load.delayMs(), load.payloadSize(),
                load.maxConnections(), load.timeout(), load.saturationPct(), load.pacing(), false, load.settle());
        return new RunSettings(output, l, servers, observation, conditionSets, capacity, serverHost, price, loadHosts, precision);
    }

    /** Whether any session reaches memcached through the store-latency proxy ({@code --store-latency}). */
    public boolean storeLatencies() {
        return conditionSets.stream().anyMatch(c -> c.storeLatency().isPresent());
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
        return servers.variants().size() * conditionSets.size() * stepsPerVariant();
    }

    private int stepsPerVariant() {
        return capacity.map(plan -> load.scenarios().size() * plan.maxProbes())
                .orElseGet(() -> load.scenarios().values().stream().mapToInt(List::size).sum());
    }

    /** Samples in one pass: every step measured {@code iterations} times (a capacity probe once). */
    public int samplesPerPass() {
        return stepCount() * (capacity.isPresent() ? 1 : load.iterations());
    }

    /** Warm-ups in one pass: one per variant, conditions and scenario. */
    public int warmUpsPerPass() {
        return servers.variants().size() * conditionSets.size() * load.scenarios().size();
    }

    /** The measured windows of one pass, in milliseconds. */
    public long measuredMillisPerPass() {
        return samplesPerPass() * load.window().toMillis();
    }
}
