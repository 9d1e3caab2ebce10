package org.testbed.driver;

import java.util.function.LongConsumer;

/** A growable FIFO of longs (intended start times), without boxing. */
final class LongQueue {
    private long[] items = new long[1024];
    private int head;
    private int size;

    void add(long value) {
        if (size == items.length) {
            long[] bigger = new long[items.length * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = items[(head + i) % items.length];
            }
            items = bigger;
            head = 0;
        }
        items[(head + size) % items.length] = value;
        size++;
    }

    /** Every value, oldest first, without removing them. */
    void forEach(LongConsumer each) {
        for (int i = 0; i < size; i++) {
            each.accept(items[(head + i) % items.length]);
        }
    }

    long poll() {
        long value = items[head];
        head = (head + 1) % items.length;
        size--;
        return value;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }
}
