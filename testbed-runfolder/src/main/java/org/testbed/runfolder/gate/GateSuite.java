package org.testbed.runfolder.gate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The checks of one gate: a JUnit test suite.
 *
 * @param name the suite's name, e.g. {@code testbed compare x86 vs arm64}
 * @param failureType the {@code type} of each failure, e.g. {@code slower}
 * @param properties what the gate was asked (the gate's text, the run folders), in order
 * @param cases the checks, in order
 */
public record GateSuite(String name, String failureType, Map<String, String> properties, List<GateCase> cases) {
    public GateSuite {
        properties = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        cases = List.copyOf(cases);
    }

    /** How many checks had this outcome. */
    public long count(Outcome outcome) {
        return cases.stream().filter(c -> c.outcome() == outcome).count();
    }

    /** Whether any check failed: what makes the command exit with the gate's status. */
    public boolean failed() {
        return count(Outcome.FAILED) > 0;
    }

    /** {@code 12 checked: 10 passed, 1 failed, 1 inconclusive}. */
    public String summary() {
        return String.format(Locale.ROOT, "%d checked: %d passed, %d failed, %d inconclusive", cases.size(),
                count(Outcome.PASSED), count(Outcome.FAILED), count(Outcome.INCONCLUSIVE));
    }
}
