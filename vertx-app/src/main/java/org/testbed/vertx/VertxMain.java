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
    private static final String MODE_PROPERTY = "testbed.mode";
    private static final String MODE_ENVIRONMENT = "TESTBED_MODE";

    private VertxMain() {
    }

    public static void main(String[] args) {
        defaultToAsync();
        TestbedConfig config = TestbedConfig.fromCommandLine(VertxServer.FAMILY, args);
        ServerStartup.requireRunnable(VertxServer.FAMILY, config, Set.of(Mode.ASYNC));
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

    /**
     * The shared default mode is {@code sync}, which an event loop does not offer. This variant's
     * only mode becomes its default through the shared fallback chain itself (a system property
     * is consulted after a flag): {@code java -jar vertx.jar} starts in async mode, {@code --help}
     * shows async as the default, and an explicit {@code --mode sync}, {@code -Dtestbed.mode=sync}
     * or {@code TESTBED_MODE=sync} is still refused with a clear message.
     */
    private static void defaultToAsync() {
        String environment = System.getenv(MODE_ENVIRONMENT);
        if (System.getProperty(MODE_PROPERTY) == null && (environment == null || environment.isEmpty())) {
            System.setProperty(MODE_PROPERTY, Mode.ASYNC.label());
        }
    }
}
