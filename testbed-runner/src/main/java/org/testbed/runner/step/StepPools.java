package org.testbed.runner.step;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.stats.ForkPool;

/**
 * The spread between forks of the run's steps, for the three figures that get an interval, each
 * pooled over the steps of one scenario under one set of conditions ({@link ForkPool}): what a
 * step measured in two forks leans on when its own two JVMs give its interval one degree of
 * freedom.
 */
record StepPools(ForkPool rps, ForkPool p99, ForkPool cpu) {
    static final StepPools NONE = new StepPools(ForkPool.NONE, ForkPool.NONE, ForkPool.NONE);

    static final ToDoubleFunction<Sample> RPS = s -> s.row().throughput().rps();
    static final ToDoubleFunction<Sample> P99 = s -> s.row().latency().p99Ms();
    static final ToDoubleFunction<Sample> CPU = s -> s.row().server().cpuMsPerReq();

    /** For every step, the pools of its scenario and conditions (the step itself included; {@link ForkPool#without} takes it out). */
    static Map<ResultRow.StepKey, StepPools> of(Map<ResultRow.StepKey, List<Sample>> byStep) {
        Map<String, List<List<Sample>>> groups = new LinkedHashMap<>();
        byStep.forEach((key, samples) -> groups.computeIfAbsent(group(key), g -> new ArrayList<>()).add(samples));
        Map<String, StepPools> pools = new LinkedHashMap<>();
        groups.forEach((group, steps) -> pools.put(group,
                new StepPools(pool(steps, RPS), pool(steps, P99), pool(steps, CPU))));
        Map<ResultRow.StepKey, StepPools> byKey = new LinkedHashMap<>();
        byStep.keySet().forEach(key -> byKey.put(key, pools.get(group(key))));
        return byKey;
    }

    /** One figure of a step's samples, grouped by fork in fork order. */
    static List<double[]> byFork(List<Sample> samples, ToDoubleFunction<Sample> figure) {
        Map<Integer, List<Sample>> forks = new TreeMap<>();
        for (Sample s : samples) {
            forks.computeIfAbsent(s.sample().repeat(), k -> new ArrayList<>()).add(s);
        }
        return forks.values().stream().map(f -> f.stream().mapToDouble(figure).toArray()).toList();
    }

    private static ForkPool pool(Collection<List<Sample>> steps, ToDoubleFunction<Sample> figure) {
        return ForkPool.of(steps.stream().map(samples -> byFork(samples, figure)).toList());
    }

    /** Steps pool with those of their scenario under the same conditions, whatever the variant and level. */
    private static String group(ResultRow.StepKey key) {
        return key.scenario() + " " + key.conditions().label();
    }
}
