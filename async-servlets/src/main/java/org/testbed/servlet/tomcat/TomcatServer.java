package org.testbed.servlet.tomcat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.catalina.Globals;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.session.StandardManager;
import org.apache.catalina.startup.Tomcat;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.containers.tomcat.ProblemErrorReportValve;
import org.testbed.containers.tomcat.RequestMetricsFilter;
import org.testbed.containers.tomcat.TomcatConnectors;
import org.testbed.service.Metrics;
import org.testbed.servlet.Servlets;
import org.testbed.store.ItemStore;

/**
 * Variants {@code servlet-tomcat-sync}, {@code -async} and {@code -virtual}: the servlet of the mode
 * on embedded Tomcat 10.1, mapped to {@code /*} of the root context, with no session, JSP or
 * default servlet. {@code java -jar servlet-tomcat.jar --mode async --port 0}.
 */
public final class TomcatServer {
    public static final String FAMILY = "servlet-tomcat";
    private static final String SERVLET = "testbed";
    /**
     * At stop, Tomcat warns about every thread the application started (the shared delay timer,
     * the Memcached client's): meant for webapps redeployed in a long-lived Tomcat, noise for one
     * application that lives as long as the JVM. Held here so the level is not garbage-collected.
     */
    private static final Logger LEAK_WARNINGS = quiet("org.apache.catalina.loader.WebappClassLoaderBase");

    private TomcatServer() {
    }

    /**
     * A Tomcat for {@code config}, not yet started. It owns {@code store} and closes it once
     * stopped; its scratch directory is deleted once it is destroyed ({@link #stop}).
     */
    public static Tomcat newServer(TestbedConfig config, ItemStore store) {
        Path baseDir = temporaryBaseDir();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        Connector connector = TomcatConnectors.newConnector(config);
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        ((StandardHost) tomcat.getHost()).setErrorReportValveClass(ProblemErrorReportValve.class.getName());

        StandardContext context = (StandardContext) tomcat.addContext("", null);
        // No sessions are used: no persistence at stop, no slow SHA1PRNG seeding at start.
        StandardManager sessions = new StandardManager();
        sessions.setPathname(null);
        sessions.setSecureRandomAlgorithm("");
        context.setManager(sessions);
        // One application for the life of the JVM, never redeployed: no class-loader leak hunting at
        // stop (see LEAK_WARNINGS).
        context.setClearReferencesObjectStreamClassCaches(false);
        context.setClearReferencesRmiTargets(false);
        context.setClearReferencesThreadLocals(false);
        Metrics metrics = Metrics.of(config);
        if (metrics.enabled()) {
            RequestMetricsFilter.addTo(context, metrics);
        }
        Wrapper servlet = Tomcat.addServlet(context, SERVLET,
                Servlets.forMode(Servlets.variant(FAMILY, config), config, store, metrics));
        servlet.setAsyncSupported(true);
        context.addServletMappingDecoded("/*", SERVLET, false);

        tomcat.getServer().addLifecycleListener(event -> {
            if (Lifecycle.AFTER_STOP_EVENT.equals(event.getType())) {
                store.close();
            } else if (Lifecycle.AFTER_DESTROY_EVENT.equals(event.getType())) {
                // Not before: Tomcat re-creates its base directory until destroyed. Tomcat also
                // publishes it as catalina.base/home, which a next Tomcat in this JVM would use.
                for (String property : new String[] {Globals.CATALINA_BASE_PROP, Globals.CATALINA_HOME_PROP}) {
                    if (baseDir.toString().equals(System.getProperty(property))) {
                        System.clearProperty(property);
                    }
                }
                deleteTree(baseDir);
            }
        });
        return tomcat;
    }

    /** Starts {@code tomcat}; fails if the connector did not (Tomcat itself only logs that). */
    public static void start(Tomcat tomcat) throws LifecycleException {
        tomcat.start();
        Connector connector = tomcat.getConnector();
        if (connector.getState() != LifecycleState.STARTED) {
            tomcat.stop();
            throw new LifecycleException("The connector did not start (port " + connector.getPort()
                    + " in use, or a bad address?); see Tomcat's log above.");
        }
    }

    /** The bound port, once started. */
    public static int localPort(Tomcat tomcat) {
        return tomcat.getConnector().getLocalPort();
    }

    public static void stop(Tomcat tomcat) {
        try {
            if (tomcat.getServer().getState().isAvailable()) {
                tomcat.stop();
            }
            tomcat.destroy();
        } catch (LifecycleException e) {
            System.err.println("testbed: stopping Tomcat failed: " + e.getMessage());
        }
    }

    public static void main(String[] args) throws Exception {
        TestbedConfig config = TestbedConfig.fromCommandLine(FAMILY, args);
        ServerStartup.prepare(FAMILY, config, Servlets.MODES);
        Tomcat tomcat = newServer(config, ServerStartup.connectStore(config));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(tomcat), "testbed-shutdown"));
        try {
            start(tomcat);
        } catch (LifecycleException e) {
            System.err.println("testbed: " + FAMILY + " failed to start: " + e.getMessage());
            System.exit(1);
        }
        ServerStartup.printReady(Servlets.variant(FAMILY, config), config, localPort(tomcat));
        tomcat.getServer().await();
    }

    private static Logger quiet(String name) {
        Logger logger = Logger.getLogger(name);
        logger.setLevel(Level.SEVERE);
        return logger;
    }

    private static Path temporaryBaseDir() {
        try {
            return Files.createTempDirectory("testbed-tomcat-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot make Tomcat's scratch directory", e);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // best effort: it is a temporary directory
        }
    }
}
