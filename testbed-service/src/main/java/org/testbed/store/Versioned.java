package org.testbed.store;

/** A stored value and its Memcached CAS, the source of the item's ETag. */
public record Versioned(byte[] value, long cas) {
}
