package org.testbed.runner.step;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.testbed.runfolder.StoreLatency;
import org.testbed.toxiproxy.ToxiproxyClient;
import org.testbed.toxiproxy.ToxiproxyProcess;

/**
 * The network a run puts between its servers and memcached when it asks for a store latency
 * ({@code --store-latency}): one Toxiproxy, pinned with memcached (it is the store's side of the
 * wire), with a proxy per memcached server. A session under a store latency is given the proxies'
 * addresses as its MEMCACHED_SERVERS, their latency set before its server starts; every other
 * session keeps the direct addresses. Sessions run one after another, so one latency at a time.
 */
final class StoreLatencyProxy implements AutoCloseable {
    private final ToxiproxyProcess toxiproxy;
    private final List<String> proxies = new ArrayList<>();
    private final String proxiedServers;
    private Optional<StoreLatency> applied = Optional.empty();

    private StoreLatencyProxy(ToxiproxyProcess toxiproxy, String memcachedServers) {
        this.toxiproxy = toxiproxy;
        List<String> listens = new ArrayList<>();
        for (String upstream : memcachedServers.split(",")) {
            String name = "memcached-" + (proxies.size() + 1);
            listens.add(toxiproxy.client().createProxy(name, upstream.strip()).listen());
            proxies.add(name);
        }
        this.proxiedServers = String.join(",", listens);
    }

    /** Starts Toxiproxy on {@code cpus} ({@code ""}: any) with a proxy in front of each of {@code memcachedServers}. */
    static StoreLatencyProxy start(String memcachedServers, String cpus) {
        ToxiproxyProcess toxiproxy = ToxiproxyProcess.start(cpus);
        try {
            return new StoreLatencyProxy(toxiproxy, memcachedServers);
        } catch (RuntimeException e) {
            toxiproxy.close();
            throw e;
        }
    }

    /** MEMCACHED_SERVERS for a session whose store is {@code latency} away: the proxies, that latency now set on each. */
    String serversAt(StoreLatency latency) {
        if (!applied.equals(Optional.of(latency))) {
            ToxiproxyClient client = toxiproxy.client();
            for (String proxy : proxies) {
                if (applied.filter(StoreLatencyProxy::delays).isPresent()) {
                    client.removeLatency(proxy);
                }
                if (delays(latency)) {
                    client.addLatency(proxy, latency.latency(), latency.jitter());
                }
            }
            applied = Optional.of(latency);
        }
        return proxiedServers;
    }

    private static boolean delays(StoreLatency latency) {
        return latency.latency().compareTo(Duration.ZERO) > 0;
    }

    long pid() {
        return toxiproxy.pid();
    }

    String api() {
        return toxiproxy.toString();
    }

    @Override
    public void close() {
        toxiproxy.close();
    }
}
