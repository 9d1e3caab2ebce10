package org.testbed.runner.fault;

import org.testbed.toxiproxy.ToxiproxyClient;

/**
 * The proxy between the variants and the runner's memcached, for the faults that act on the
 * connections rather than the process (a reset): Toxiproxy's proxy {@code name}, driven by
 * {@code client}, which the variants of a session with such a fault are given as their store.
 *
 * @param listen where the variants reach the store through it ({@code 127.0.0.1:PORT})
 */
public record StoreProxy(ToxiproxyClient client, String name, String listen) {
}
