package org.testbed.servlet;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.config.TestbedConfig;
import org.testbed.junit.EndpointSmoke;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.server.ServerStartup;
import org.testbed.containers.jetty.JettyServers;
import org.testbed.servlet.jetty.JettyServer;
import org.testbed.servlet.tomcat.TomcatServer;

/**
 * Each container and mode started in-process from its {@code newServer} factory on 127.0.0.1,
 * port 0, against a real memcached, and given one request of every kind.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
class ServletServersTest {
    private static final int MAX_BODY = 4096;

    /**
     * Sync and async on both containers; virtual too when this JVM has virtual threads (JDK 21+).
     * On JDK 17 the virtual variants are covered by the contract suite, which runs them on a newer
     * JDK, and by its check that they refuse to start on 17.
     */
    static List<Arguments> servers() {
        List<Arguments> servers = new ArrayList<>();
        List<String> modes = new ArrayList<>(List.of("sync", "async"));
        if (Runtime.version().feature() >= ServerStartup.VIRTUAL_THREADS_JDK) {
            modes.add("virtual");
        }
        for (String container : List.of("tomcat", "jetty")) {
            for (String mode : modes) {
                servers.add(Arguments.of(container, mode));
            }
        }
        return servers;
    }

    @ParameterizedTest(name = "servlet-{0}-{1}")
    @MethodSource("servers")
    void answersEveryKindOfRequest(String container, String mode, MemcachedProcess memcached) throws Exception {
        TestbedConfig config = TestbedConfig.parse("test", new String[] {"--host", "127.0.0.1", "--port", "0",
                "--mode", mode, "--max-body", Integer.toString(MAX_BODY), "--memcached-servers", memcached.address()},
                Map.of(), new Properties());
        String variant = "servlet-" + container + "-" + mode;
        if (container.equals("tomcat")) {
            Tomcat tomcat = TomcatServer.newServer(config, ServerStartup.connectStore(config));
            TomcatServer.start(tomcat);
            try {
                EndpointSmoke.check(URI.create("http://127.0.0.1:" + TomcatServer.localPort(tomcat)), variant, MAX_BODY);
            } finally {
                TomcatServer.stop(tomcat);
            }
        } else {
            Server jetty = JettyServer.newServer(config, ServerStartup.connectStore(config));
            jetty.start();
            try {
                EndpointSmoke.check(URI.create("http://127.0.0.1:" + JettyServers.localPort(jetty)), variant, MAX_BODY);
            } finally {
                jetty.stop();
            }
        }
    }
}
