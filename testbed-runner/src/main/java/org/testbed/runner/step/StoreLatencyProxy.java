package org.testbed.runner.step;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.testbed.runfolder.StoreLatency;
import org.testbed.runner.fault.StoreProxy;
import org.testbed.toxiproxy.ToxiproxyClient;
import org.testbed.toxiproxy.ToxiproxyProcess;

/**
 * The network a run puts between its servers and memcached when it asks for a store latency
 * ({@code --store-latency}) or a fault of the connections ({@code --fault reset}): one Toxiproxy,
 * pinned with memcached (it is the store's side of the wire), with a proxy per memcached server. A
 * session under a store latency is given the proxies' addresses as its MEMCACHED_SERVERS, their
 * latency set before its server starts, and so is a session with a reset, undelayed; every other
 * session keeps the direct addresses. One latency at a time: sessions run one after another, or in
 * turns, each turn setting its session's latency again ({@code ServerHosting#turnOf}).
 */
final class StoreLatencyProxy implements AutoCloseable {
    private final ToxiproxyProcess toxiproxy;
    private final List<String> proxies = new ArrayList<>();
    private final List<String> listens = new ArrayList<>();
    private final String proxiedServers;
    private Optional<StoreLatency> applied = Optional.empty();

    private StoreLatencyProxy(ToxiproxyProcess toxiproxy, String memcachedServers) {
        this.toxiproxy = toxiproxy;
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

    /**
     * MEMCACHED_SERVERS for a session whose store is {@code latency} away, or through the proxies
     * undelayed when empty (a fault of the connections needs the proxy, not a latency): that latency
     * now set on each proxy.
     */
    String serversAt(Optional<StoreLatency> latency) {
        if (!applied.equals(latency)) {
            ToxiproxyClient client = toxiproxy.client();
            for (String proxy : proxies) {
                if (applied.filter(StoreLatencyProxy::delays).isPresent()) {
                    client.removeLatency(proxy);
                }
                if (latency.filter(StoreLatencyProxy::delays).isPresent()) {
                    client.addLatency(proxy, latency.get().latency(), latency.get().jitter());
                }
            }
            applied = latency;
        }
        return proxiedServers;
    }

    /** The first proxy, for the faults of the connections ({@code --fault reset}), which need the runner's one memcached. */
    StoreProxy faultTarget() {
        return new StoreProxy(toxiproxy.client(), proxies.get(0), listens.get(0));
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
