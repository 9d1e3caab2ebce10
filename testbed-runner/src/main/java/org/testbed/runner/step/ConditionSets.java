package org.testbed.runner.step;

import java.util.ArrayList;
import java.util.List;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.StoreLatency;

/** How {@code --store-latency} combines with the other conditions of a run. */
public final class ConditionSets {
    private ConditionSets() {
    }

    /**
     * Every set of {@code sets} at each of {@code latencies} ({@code 10ms}, {@code 10ms±2ms}) in turn,
     * their own store latency (a profile's, {@code --conditions store2ms}) replaced; {@code sets} as
     * they are when {@code latencies} is null or empty.
     */
    public static List<Conditions> atStoreLatencies(List<Conditions> sets, List<String> latencies) {
        if (latencies == null || latencies.isEmpty()) {
            return sets;
        }
        List<StoreLatency> parsed = new ArrayList<>();
        for (String text : latencies) {
            StoreLatency latency = StoreLatency.parse(text);
            if (parsed.contains(latency)) {
                throw new IllegalArgumentException("--store-latency names " + latency.describe() + " twice");
            }
            parsed.add(latency);
        }
        List<Conditions> crossed = new ArrayList<>();
        for (Conditions set : sets.stream().map(Conditions::withoutStoreLatency).distinct().toList()) {
            parsed.forEach(latency -> crossed.add(set.withStoreLatency(latency)));
        }
        return crossed;
    }
}
