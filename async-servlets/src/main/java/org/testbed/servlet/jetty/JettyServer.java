package org.testbed.servlet.jetty;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.containers.jetty.JettyServers;
import org.testbed.containers.jetty.ProblemErrorHandler;
import org.testbed.service.Metrics;
import org.testbed.servlet.Servlets;
import org.testbed.store.ItemStore;

/**
 * Variants {@code servlet-jetty-sync}, {@code -async} and {@code -virtual}: the servlet of the mode
 * on embedded Jetty 12.1 ee10 (Servlet 6.0), mapped to {@code /*} of the root context, no sessions.
 * {@code java -jar servlet-jetty.jar --mode async --port 0}.
 */
public final class JettyServer {
    public static final String FAMILY = "servlet-jetty";

    private JettyServer() {
    }

    /** A Jetty for {@code config}, not yet started. It owns {@code store} and closes it once stopped. */
    public static Server newServer(TestbedConfig config, ItemStore store) {
        Server server = JettyServers.newServer(config, store);
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath("/");
        context.setErrorHandler(new ProblemErrorHandler());
        Metrics metrics = Metrics.of(config);
        ServletHolder servlet = new ServletHolder("testbed",
                Servlets.forMode(Servlets.variant(FAMILY, config), config, store, metrics));
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, "/*");
        JettyServers.setHandler(server, config, metrics, context);
        return server;
    }

    public static void main(String[] args) throws Exception {
        TestbedConfig config = TestbedConfig.fromCommandLine(FAMILY, args);
        ServerStartup.prepare(FAMILY, config, Servlets.MODES);
        JettyServers.serve(newServer(config, ServerStartup.connectStore(config)), FAMILY, Servlets.variant(FAMILY, config), config);
    }
}
