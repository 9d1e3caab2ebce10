package org.testbed.jetty;

import java.util.EnumSet;
import java.util.Set;
import org.eclipse.jetty.server.Server;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.containers.jetty.JettyServers;
import org.testbed.service.ItemService;
import org.testbed.service.Metrics;
import org.testbed.store.ItemStore;

/**
 * Variant {@code jetty-handler}: {@link TestbedHandler} on Jetty 12.1's core server, asynchronous
 * only. {@code java -jar jetty-handler.jar --mode async --port 0}.
 */
public final class JettyHandlerServer {
    public static final String VARIANT = "jetty-handler";
    static final Set<Mode> MODES = EnumSet.of(Mode.ASYNC);

    private JettyHandlerServer() {
    }

    /** A Jetty for {@code config}, not yet started. It owns {@code store} and closes it once stopped. */
    public static Server newServer(TestbedConfig config, ItemStore store) {
        Server server = JettyServers.newServer(config, store);
        Metrics metrics = Metrics.of(config);
        JettyServers.setHandler(server, config, metrics,
                new TestbedHandler(ItemService.of(store, VARIANT, config, metrics)));
        return server;
    }

    public static void main(String[] args) throws Exception {
        TestbedConfig config = TestbedConfig.fromCommandLine(VARIANT, args, Mode.ASYNC);
        ServerStartup.prepare(VARIANT, config, MODES);
        JettyServers.serve(newServer(config, ServerStartup.connectStore(config)), VARIANT, VARIANT, config);
    }
}
