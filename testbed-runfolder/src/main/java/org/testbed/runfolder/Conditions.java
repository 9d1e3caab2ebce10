package org.testbed.runfolder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a step ran under besides its level: HTTPS ({@code --tls}), gzip ({@code --gzip}), the
 * servers' metrics ({@code --metrics}: recorded, and scraped once a second), a store further away
 * ({@code --store-latency}: memcached reached through a proxy that delays its replies) and faults of
 * the store inside each window ({@code --fault}, {@link FaultSpec}) and a known CPU cost planted in
 * every item request ({@code work20us}, {@link PlantedWork}). Two steps under different
 * conditions measure different work, so they are never compared as the same step.
 *
 * <p>Written as one CSV field, {@code conditions}: {@code plain} when none is on, else the ones on
 * joined by {@code +} in the order {@code tls}, {@code gzip}, {@code metrics}, the planted work, the
 * store latency (see {@link StoreLatency}), then the faults in the order given (e.g. {@code tls+gzip},
 * {@code tls+work20us}, {@code metrics+store2ms~1ms}, {@code store10ms+stall5s+2s}). A fault's own {@code +} (its length)
 * is read back with it: no other condition starts with a digit. A file from before the column
 * existed reads as {@code plain}, which is what it measured.
 */
public record Conditions(boolean tls, boolean gzip, boolean metrics, Optional<StoreLatency> storeLatency,
                         List<FaultSpec> faults, Optional<PlantedWork> work) {
    public static final Conditions PLAIN = new Conditions(false, false, false);

    public Conditions {
        storeLatency = storeLatency == null ? Optional.empty() : storeLatency;
        faults = List.copyOf(faults);
        work = work == null ? Optional.empty() : work;
    }

    /** Conditions with no planted work. */
    public Conditions(boolean tls, boolean gzip, boolean metrics, Optional<StoreLatency> storeLatency, List<FaultSpec> faults) {
        this(tls, gzip, metrics, storeLatency, faults, Optional.empty());
    }

    /** Conditions with the store as near as it is, and no fault. */
    public Conditions(boolean tls, boolean gzip, boolean metrics) {
        this(tls, gzip, metrics, Optional.empty(), List.of());
    }

    /** These conditions with the store {@code latency} away. */
    public Conditions withStoreLatency(StoreLatency latency) {
        return new Conditions(tls, gzip, metrics, Optional.of(latency), faults, work);
    }

    /** These conditions with the store as near as it is. */
    public Conditions withoutStoreLatency() {
        return new Conditions(tls, gzip, metrics, Optional.empty(), faults, work);
    }

    /** These conditions with {@code more} faults after their own. */
    public Conditions withFaults(List<FaultSpec> more) {
        List<FaultSpec> all = new ArrayList<>(faults);
        all.addAll(more);
        return new Conditions(tls, gzip, metrics, storeLatency, all, work);
    }

    /** These conditions with {@code planted} work in every item request. */
    public Conditions withWork(PlantedWork planted) {
        return new Conditions(tls, gzip, metrics, storeLatency, faults, Optional.of(planted));
    }

    /** Whether a fault of these conditions needs the variants to reach the store through a proxy. */
    public boolean storeBehindProxy() {
        return storeLatency.isPresent() || faults.stream().anyMatch(FaultSpec::needsProxy);
    }

    /** The CSV field. */
    public String label() {
        List<String> on = new ArrayList<>();
        if (tls) {
            on.add("tls");
        }
        if (gzip) {
            on.add("gzip");
        }
        if (metrics) {
            on.add("metrics");
        }
        work.ifPresent(w -> on.add(w.label()));
        storeLatency.ifPresent(latency -> on.add(latency.label()));
        faults.forEach(f -> on.add(f.label()));
        return on.isEmpty() ? "plain" : String.join("+", on);
    }

    /** The CSV field read back; empty or absent is {@link #PLAIN}. */
    public static Conditions parse(String field) {
        if (field == null || field.isBlank() || field.strip().equals("plain")) {
            return PLAIN;
        }
        boolean tls = false;
        boolean gzip = false;
        boolean metrics = false;
        Optional<StoreLatency> store = Optional.empty();
        Optional<PlantedWork> work = Optional.empty();
        List<FaultSpec> faults = new ArrayList<>();
        String[] parts = field.strip().split("\\+");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            switch (part) {
                case "tls" -> tls = true;
                case "gzip" -> gzip = true;
                case "metrics" -> metrics = true;
                default -> {
                    if (PlantedWork.isLabel(part)) {
                        if (work.isPresent()) {
                            throw new IllegalArgumentException("a second planted work '" + part + "' in '" + field
                                    + "': a set of conditions plants one (e.g. tls+work20us)");
                        }
                        work = Optional.of(PlantedWork.fromLabel(part));
                    } else if (StoreLatency.isLabel(part) && store.isEmpty()) {
                        store = Optional.of(StoreLatency.fromLabel(part));
                    } else if (FaultSpec.isFault(part) && !StoreLatency.isLabel(part)) {
                        // A fault's length is the next part: it starts with a digit, as no condition does.
                        boolean lengthFollows = i + 1 < parts.length && !parts[i + 1].isEmpty()
                                && Character.isDigit(parts[i + 1].charAt(0));
                        faults.add(FaultSpec.parse(lengthFollows ? part + "+" + parts[++i] : part));
                    } else {
                        throw new IllegalArgumentException("unknown condition '" + part + "' in '" + field
                                + "'; conditions are plain, or tls, gzip, metrics, one store latency (store10ms,"
                                + " store10ms~2ms), one planted work (work20us) and faults (stall5s+2s) joined by +");
                    }
                }
            }
        }
        return new Conditions(tls, gzip, metrics, store, faults, work);
    }

    @Override
    public String toString() {
        return label();
    }
}
