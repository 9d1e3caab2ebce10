package org.testbed.item;

import java.util.Objects;

/**
 * The one entity of the workload. {@code payload} is never null: an absent or null payload in a
 * request is stored as the empty string, so every stored item has the same three string fields.
 */
public record Item(String id, String name, String payload) {
    public Item {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        payload = payload == null ? "" : payload;
    }
}
