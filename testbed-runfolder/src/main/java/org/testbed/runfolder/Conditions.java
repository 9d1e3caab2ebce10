package org.testbed.runfolder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a step ran under besides its level: HTTPS ({@code --tls}), gzip ({@code --gzip}), the
 * servers' metrics ({@code --metrics}: recorded, and scraped once a second), and a store further
 * away ({@code --store-latency}: memcached reached through a proxy that delays its replies). Two
 * steps under different conditions measure different work, so they are never compared as the same step.
 *
 * <p>Written as one CSV field, {@code conditions}: {@code plain} when none is on, else the ones on
 * joined by {@code +} in the order {@code tls}, {@code gzip}, {@code metrics}, the store latency
 * (e.g. {@code tls+gzip}, {@code store10ms}, {@code metrics+store2ms~1ms}; see {@link StoreLatency}).
 * A file from before the column existed reads as {@code plain}, which is what it measured.
 */
public record Conditions(boolean tls, boolean gzip, boolean metrics, Optional<StoreLatency> storeLatency) {
    public static final Conditions PLAIN = new Conditions(false, false, false);

    public Conditions {
        storeLatency = storeLatency == null ? Optional.empty() : storeLatency;
    }

    /** Conditions with the store as near as it is. */
    public Conditions(boolean tls, boolean gzip, boolean metrics) {
        this(tls, gzip, metrics, Optional.empty());
    }

    /** These conditions with the store {@code latency} away. */
    public Conditions withStoreLatency(StoreLatency latency) {
        return new Conditions(tls, gzip, metrics, Optional.of(latency));
    }

    /** These conditions with the store as near as it is. */
    public Conditions withoutStoreLatency() {
        return new Conditions(tls, gzip, metrics, Optional.empty());
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
        storeLatency.ifPresent(latency -> on.add(latency.label()));
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
        for (String part : field.strip().split("\\+")) {
            switch (part) {
                case "tls" -> tls = true;
                case "gzip" -> gzip = true;
                case "metrics" -> metrics = true;
                default -> {
                    if (!StoreLatency.isLabel(part) || store.isPresent()) {
                        throw new IllegalArgumentException("unknown condition '" + part + "' in '" + field
                                + "'; conditions are plain, or tls, gzip, metrics and one store latency (store10ms,"
                                + " store10ms~2ms) joined by +");
                    }
                    store = Optional.of(StoreLatency.fromLabel(part));
                }
            }
        }
        return new Conditions(tls, gzip, metrics, store);
    }

    @Override
    public String toString() {
        return label();
    }
}
