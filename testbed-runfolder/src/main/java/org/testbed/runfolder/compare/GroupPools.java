package org.testbed.runfolder.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testbed.runfolder.stats.ForkPool;

/**
 * One run's spread between forks of one figure, pooled over each group of steps that share it
 * ({@link ForkPool}): the steps of a scenario under one set of conditions, whatever the variant
 * and level (and for an operation's figure, that operation's in those steps). A step leans on the
 * others of its group, never on itself.
 */
final class GroupPools {
    private final Map<String, ForkPool> byGroup;

    private GroupPools(Map<String, ForkPool> byGroup) {
        this.byGroup = byGroup;
    }

    /** The pools of these groups, each given as its steps' samples grouped by fork. */
    static GroupPools of(Map<String, List<List<double[]>>> stepsByGroup) {
        Map<String, ForkPool> pools = new LinkedHashMap<>();
        stepsByGroup.forEach((group, steps) -> pools.put(group, ForkPool.of(steps)));
        return new GroupPools(pools);
    }

    /** The pool of {@code group} without the step whose forks are {@code forks}. */
    ForkPool others(String group, List<double[]> forks) {
        return byGroup.getOrDefault(group, ForkPool.NONE).without(forks);
    }
}
