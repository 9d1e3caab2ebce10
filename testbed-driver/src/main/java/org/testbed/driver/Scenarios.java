package org.testbed.driver;

import java.util.List;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Mix;
import org.testbed.scenario.Payloads;
import org.testbed.scenario.ReadHeavyMix;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.Workload;
import org.testbed.scenario.WrkScript;

/**
 * How the runner builds a step's load from the scenario library (testbed-scenarios): which
 * scenarios exist, the workload of a step, its preload, and the wrk script it renders. The rest of
 * the runner uses the library's own types where it needs them ({@link Workload},
 * {@link RequestSpec}, the preloader, the key space).
 *
 * <p>Every step gets its own key space ({@code injector} = the step's id), so a key a step leaves
 * behind (a journey cut short when the step ends, a churn key not yet deleted) can never collide
 * with a key a later step creates.
 *
 * @param runId the run id, the key space's first part
 * @param payloadSize payload bytes of every written item
 * @param delayMs the simulated I/O of the {@code delay} scenario
 * @param seed the base seed (same seed, same requests)
 */
public record Scenarios(String runId, int payloadSize, int delayMs, long seed) {

    public static final List<String> NAMES = Workload.NAMES;

    public Scenarios {
        Payloads.parseSize(Integer.toString(payloadSize));
    }

    /** The workload {@code name} for the step {@code stepId} (1..48 of {@code [A-Za-z0-9_~-]}). */
    public Workload workload(String name, String stepId) {
        KeySpace keys = new KeySpace(keyPart(runId), stepId);
        Workload.Settings defaults = Workload.Settings.defaults(keys);
        return Workload.of(name, new Workload.Settings(keys, seed, payloadSize, defaults.preloadKeys(),
                Mix.READ_HEAVY, delayMs));
    }

    /** Whether {@code name} is a known scenario. */
    public static void validate(String name) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("unknown scenario '" + name + "'; one of " + NAMES);
        }
    }

    /** Requests to send once before a scenario's first step (201 or 409 both fine). */
    public List<RequestSpec> preload(Workload workload) {
        return workload.preload();
    }

    /** Whether wrk can drive this workload (the CRUD journey needs strict per-user order). */
    public static boolean wrkCanDrive(Workload workload) {
        return !workload.name().equals("journey");
    }

    /** The wrk Lua script for {@code threads} threads and {@code connections} connections. */
    public static String wrkScript(Workload workload, int threads, int connections) {
        int cycle = workload instanceof ReadHeavyMix ? 2000 : 1;
        return WrkScript.render(workload, threads, connections, cycle);
    }

    /** A run id made fit for a key (the key charset, no dot, at most 48 characters). */
    static String keyPart(String runId) {
        String cleaned = runId.replaceAll("[^A-Za-z0-9_~-]", "-");
        return cleaned.length() <= 48 ? cleaned : cleaned.substring(cleaned.length() - 48);
    }
}
