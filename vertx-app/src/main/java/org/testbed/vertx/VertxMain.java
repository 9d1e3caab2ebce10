package org.testbed.vertx;

import java.util.Set;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;

/**
 * {@code java -jar vertx.jar [options]}: parses the configuration, starts {@link VertxServer}, prints
 * the ready line and stops cleanly on SIGTERM or Ctrl-C. {@code --help} lists the options.
 */
public final class VertxMain {
    private VertxMain() {
    }

    public static void main(String[] args) {
        // An event loop offers only async, so that is this variant's default mode.
        TestbedConfig config = TestbedConfig.fromCommandLine(VertxServer.FAMILY, args, Mode.ASYNC);
        ServerStartup.prepare(VertxServer.FAMILY, config, Set.of(Mode.ASYNC));
        VertxServer server;
        try {
            server = VertxServer.newServer(config);
        } catch (RuntimeException e) {
            System.err.println("testbed: " + VertxServer.FAMILY + " did not start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "testbed-shutdown"));
        ServerStartup.printReady(VertxServer.variantName(config), config, server.port());
    }
}
