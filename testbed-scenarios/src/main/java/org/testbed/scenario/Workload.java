package org.testbed.scenario;

import java.util.List;
import java.util.Locale;

/**
 * What the users of a run do: each lane (user) gets its own {@link RequestStream}; some workloads
 * need items to exist before the run ({@link #preload()}).
 */
public sealed interface Workload permits CrudJourney, ReadHeavyMix, Workload.Fixed {

    /** The name used in reports and on the command line ({@code journey}, {@code mix}, ...). */
    String name();

    /** The stream of lane {@code lane}: lanes never share keys, and the same lane replays the same requests. */
    RequestStream stream(long lane);

    /** Requests to send once before the run (creating the preloaded key set); 201 or 409 are both fine. */
    default List<RequestSpec> preload() {
        return List.of();
    }

    /** One request repeated: plaintext, json, delay. */
    record Fixed(String name, RequestSpec spec) implements Workload {
        @Override
        public RequestStream stream(long lane) {
            return RequestStream.repeating(spec);
        }
    }

    /** Every name {@link #of} accepts. */
    List<String> NAMES = List.of("journey", "mix", "plaintext", "json", "delay");

    /**
     * Everything a workload can be parametrised with; each knob has a default.
     *
     * @param keys the run's key space
     * @param seed the base seed: same seed, same requests
     * @param payloadSize payload bytes of every written item
     * @param preloadKeys size of the preloaded key set (mix)
     * @param mix GET:POST:PUT:DELETE weights (mix)
     * @param delayMs the simulated I/O of {@code delay}
     */
    record Settings(KeySpace keys, long seed, int payloadSize, int preloadKeys, Mix mix, int delayMs) {
        /** Checked here for every workload, also those that do not use a setting. */
        public Settings {
            Payloads.checkSize(payloadSize);
            if (preloadKeys < 1) {
                throw new InvalidParameterException("preloadKeys", preloadKeys, "a whole number, at least 1");
            }
            Requests.checkDelay(delayMs);
        }

        public static Settings defaults(KeySpace keys) {
            return new Settings(keys, 42L, Payloads.DEFAULT_SIZE, ReadHeavyMix.DEFAULT_PRELOAD_KEYS, Mix.READ_HEAVY, 150);
        }
    }

    /** The workload called {@code name} (one of {@link #NAMES}). */
    static Workload of(String name, Settings s) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "journey" -> new CrudJourney(s.keys(), s.payloadSize(), s.seed());
            case "mix" -> new ReadHeavyMix(s.keys(), s.mix(), s.preloadKeys(), s.payloadSize(), s.seed());
            case "plaintext" -> new Fixed("plaintext", Requests.plaintext());
            case "json" -> new Fixed("json", Requests.json());
            case "delay" -> new Fixed("delay", Requests.delay(s.delayMs()));
            default -> throw new InvalidParameterException("workload", "'" + name + "'", "one of " + String.join(", ", NAMES));
        };
    }
}
