package org.testbed.contract;

import java.util.concurrent.atomic.AtomicInteger;

/** The item paths, bodies and fresh ids the black-box suites build their requests from. */
final class Items {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private Items() {
    }

    /** An id no other test of this run uses: {@code kind-N-time}, all unreserved characters. */
    static String newId(String kind) {
        return kind + "-" + SEQUENCE.incrementAndGet() + "-" + Long.toString(System.nanoTime(), 36);
    }

    static String path(String id) {
        return "/testbed/items/" + id;
    }

    /** A valid item body; {@code name} and {@code payload} must need no JSON escaping. */
    static String item(String name, String payload) {
        return "{\"name\":\"" + name + "\",\"payload\":\"" + payload + "\"}";
    }
}
